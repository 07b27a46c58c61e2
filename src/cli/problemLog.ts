/**
 * What the trace readers skipped (torn lines, lines that are not JSON, over-long lines, spans missing
 * a field), gathered by kind into one stderr line each: a count and the first place seen. Shared by
 * `view` and `why`.
 */
import type { TraceFileProblem } from '../telemetry/index.js';

/** Problems by kind: a count and the first place each was seen. */
export class ProblemLog {
  private readonly byKind = new Map<TraceFileProblem['kind'], { count: number; first: TraceFileProblem }>();

  add(problem: TraceFileProblem): void {
    const seen = this.byKind.get(problem.kind);
    if (seen) seen.count++;
    else this.byKind.set(problem.kind, { count: 1, first: problem });
  }

  first(): TraceFileProblem | undefined {
    return this.byKind.values().next().value?.first;
  }

  lines(): string[] {
    const what: Record<TraceFileProblem['kind'], string> = {
      torn_tail: 'torn last line(s) skipped',
      not_json: 'line(s) that are not JSON skipped',
      too_long: 'over-long line(s) skipped',
      bad_span: 'span(s) missing a required field skipped',
    };
    return [...this.byKind.entries()].map(
      ([kind, { count, first }]) => `footprint-otel: ${count} ${what[kind]}; first at ${first.file}:${first.line}: ${first.reason}`,
    );
  }
}
