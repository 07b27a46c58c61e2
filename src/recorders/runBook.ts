/**
 * The recorder's per-run records, by run id. Concurrent runs never share a record; the latest one
 * (most recently started or resumed) answers getters asked without a run id. Only the most recent
 * KEPT_RUNS records stay reachable by id, so a long-lived recorder does not grow without bound.
 */
import type { SkillPathRun } from './types.js';

export const KEPT_RUNS = 32;

export class RunBook {
  private readonly runs = new Map<string, SkillPathRun>();

  /** Files the record as the latest run (replacing an older record of the same run id). */
  put(run: SkillPathRun): void {
    this.runs.delete(run.runId);
    this.runs.set(run.runId, run);
    for (const oldest of this.runs.keys()) {
      if (this.runs.size <= KEPT_RUNS) break;
      this.runs.delete(oldest);
    }
  }

  get(runId?: string): SkillPathRun | undefined {
    if (runId !== undefined) return this.runs.get(runId);
    let latest: SkillPathRun | undefined;
    for (const run of this.runs.values()) latest = run;
    return latest;
  }
}
