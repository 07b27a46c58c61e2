/**
 * `footprint-otel view [file|dir]` (./telemetry when none is named): the waterfall (or a list) of runs stored by the file default.
 * Given a folder it reads every trace file in it (the legacy traces.jsonl and every session's rotated
 * files), streaming. What it cannot use — a torn last line, a line that is not JSON, a span missing a
 * required field — is skipped and reported on stderr with file and line; the rest is shown.
 */
import { statSync } from 'node:fs';
import { listSignalFiles } from '../telemetry/index.js';
import { CliError, UsageError } from './args.js';
import { ProblemLog } from './problemLog.js';
import { chooseRun, collectTrace, indexRuns, type RunSource, type StoredRun } from './traces.js';
import type { TerminalLine } from './terminal.js';
import { renderWaterfall } from './waterfall.js';

export interface ViewOptions {
  path: string;
  trace?: string;
  trips: boolean;
  list: boolean;
}

export interface ViewResult {
  /** For stdout, through terminal.ts (which escapes what the telemetry files hold). */
  lines: TerminalLine[];
  /** What was skipped, one line per kind of problem, for stderr. */
  warnings: string[];
}

export async function viewCommand(options: ViewOptions): Promise<ViewResult> {
  const where = await traceSource(options.path);
  const problems = new ProblemLog();
  const source: RunSource = { path: options.path, onProblem: (problem) => problems.add(problem) };
  const runs = await indexRuns(source);
  if (runs.length === 0) {
    const first = problems.first();
    if (first) throw new CliError(`${first.file}:${first.line}: ${first.reason}`);
    return { lines: [`no runs stored in ${where}`], warnings: [] };
  }
  if (options.list) {
    const lines = runs.map((r) => {
      if (!r.root) return `${r.traceId}  ${new Date(r.startMs).toISOString()}  ${'(fragment: root span missing)'.padEnd(28)} ${String(r.spanCount).padStart(6)} span(s)`;
      const duration = (r.root.endMs - r.root.startMs).toFixed(1);
      return `${r.traceId}  ${new Date(r.root.startMs).toISOString()}  ${r.root.name.padEnd(28)} ${duration.padStart(9)} ms  ${r.root.outcome}${r.trips ? `  trips=${r.trips}` : ''}`;
    });
    return { lines, warnings: problems.lines() };
  }
  const run = chooseRun(runs, options);
  if (!run) throw new CliError(noRunMessage(runs, options, where));
  // the second pass meets the same problems again: they were reported by the first
  const { spans, total } = await collectTrace({ ...source, onProblem: () => undefined }, run.traceId);
  const fragment = run.root ? '' : ', a fragment: its root span is missing';
  return {
    lines: [`trace ${run.traceId} (${total} spans${fragment}) from ${where}`, ...renderWaterfall(spans, { total })],
    warnings: problems.lines(),
  };
}

/** Why no run could be chosen, and what to do. */
function noRunMessage(runs: StoredRun[], options: ViewOptions, where: string): string {
  if (options.trace) return `no run with trace id ${options.trace} in ${where}`;
  const complete = runs.filter((r) => r.root).length;
  if (complete === 0) {
    return `no complete run in ${where}: its ${runs.length} trace(s) are fragments, their root span missing (the process that wrote them ended first); --list lists them, --trace ID shows one`;
  }
  return `no run with a loop-guard trip in ${where} (${complete} complete run(s) stored); --list lists them`;
}

/** The path as the messages name it; a folder must hold trace files. */
export async function traceSource(path: string): Promise<string> {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    throw new UsageError(`no such file or directory: ${path}`);
  }
  if (!stats.isDirectory()) return path;
  if ((await listSignalFiles(path, 'traces')).length === 0) {
    throw new CliError(`no trace files (traces*.jsonl) in ${path}; the demo writes them to ./telemetry/`);
  }
  return path;
}
