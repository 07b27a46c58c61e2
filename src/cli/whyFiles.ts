/**
 * `why` over the telemetry files: the run is chosen as view chooses it (traces.ts: the newest run,
 * or by trace id or prefix, or by the root span's run id), and traces are read streaming, as view
 * reads them, keeping only the traces asked for. What a file holds that cannot be used is skipped and
 * reported once per kind (problemLog.ts).
 */
import { CliError } from './args.js';
import { ProblemLog } from './problemLog.js';
import { chooseRun, collectFileTraces, indexRuns, traceOfSpan, type RunSource } from './traces.js';
import { traceSource } from './view.js';
import type { RunWanted, WhySource } from './whySource.js';

export async function fileSource(path: string): Promise<WhySource> {
  const where = await traceSource(path);
  const problems = new ProblemLog();
  const source: RunSource = { path, onProblem: (problem) => problems.add(problem) };
  // every pass after the first meets the same problems again: they were reported by the first
  const quiet: RunSource = { path, onProblem: () => undefined };
  return {
    where,
    async chooseTrace(want: RunWanted): Promise<string> {
      if (want.span !== undefined && want.trace === undefined && want.run === undefined) {
        const traceId = await traceOfSpan(source, want.span);
        if (traceId === undefined) throw new CliError(`no span ${want.span} in ${where}`);
        return traceId;
      }
      const runs = await indexRuns(source);
      const run = chooseRun(runs, want);
      if (run) return run.traceId;
      const first = problems.first();
      if (runs.length === 0 && first) throw new CliError(`${first.file}:${first.line}: ${first.reason}`);
      if (want.run !== undefined) throw new CliError(`no run with run id ${want.run} in ${where} (its root span's footprint.run.id)`);
      if (want.trace !== undefined) throw new CliError(`no run with trace id ${want.trace} in ${where}`);
      throw new CliError(`no complete run in ${where}: no trace with a root span; view --list lists what is stored`);
    },
    readTraces: (traceIds) => collectFileTraces(quiet, traceIds),
    warnings: () => problems.lines(),
  };
}
