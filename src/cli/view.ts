/** `footprint-otel view <file|dir>`: the waterfall (or a list) of runs stored by the file default. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readSpans } from '../telemetry/index.js';
import { UsageError } from './args.js';
import { chooseRun, groupRuns, toViewSpan } from './traces.js';
import { renderWaterfall } from './waterfall.js';

export async function viewCommand(options: { path: string; trace?: string; trips: boolean; list: boolean; color: boolean }): Promise<string[]> {
  const file = traceFile(options.path);
  const runs = groupRuns((await readSpans(file)).map(toViewSpan));
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
    throw new UsageError(options.trace ? `no run with trace id ${options.trace} in ${file}` : `no run with a trip in ${file}`);
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
  return stats.isDirectory() ? join(path, 'traces.jsonl') : path;
}
