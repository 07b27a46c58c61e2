/** `footprint-otel view <file|dir>`: the waterfall (or a list) of runs stored by the file default. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readSpans } from '../telemetry/index.js';
import { CliError, UsageError } from './args.js';
import { chooseRun, groupRuns, toViewSpan } from './traces.js';
import { renderWaterfall } from './waterfall.js';

export async function viewCommand(options: { path: string; trace?: string; trips: boolean; list: boolean; color: boolean }): Promise<string[]> {
  const file = traceFile(options.path);
  let spans;
  try {
    spans = await readSpans(file);
  } catch (error) {
    const message = (error as Error).message;
    throw new CliError(message.startsWith(file) ? message : `cannot read ${file}: ${message}`);
  }
  const runs = groupRuns(spans.map(toViewSpan));
  if (runs.length === 0) return [`no runs stored in ${file}`];
  if (options.list) {
    return runs.map((r) => {
      const duration = (r.root.endMs - r.root.startMs).toFixed(1);
      const outcome = String(r.root.attributes['footprint.run.outcome'] ?? r.root.status);
      return `${r.traceId}  ${new Date(r.root.startMs).toISOString()}  ${r.root.name.padEnd(28)} ${duration.padStart(9)} ms  ${outcome}${r.trips ? `  trips=${r.trips}` : ''}`;
    });
  }
  const run = chooseRun(runs, options);
  if (!run) {
    throw new CliError(options.trace ? `no run with trace id ${options.trace} in ${file}` : `no run with a trip in ${file}`);
  }
  return [`trace ${run.traceId} (${run.spans.length} spans) from ${file}`, ...renderWaterfall(run.spans, { color: options.color })];
}

function traceFile(path: string): string {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    throw new UsageError(`no such file or directory: ${path}`);
  }
  if (!stats.isDirectory()) return path;
  const file = join(path, 'traces.jsonl');
  if (!existsSync(file)) throw new CliError(`no traces.jsonl in ${path} (the demo writes ./telemetry/traces.jsonl)`);
  return file;
}
