/**
 * Rejected-cap detection, pure. A rejection run counts read_skill refusals while the cursor stays
 * where it is; it trips once, when the count reaches the cap, however long the run goes on. The
 * caller ends the run (and so re-arms the guard) when the cursor moves.
 */
import type { Spend } from './loopGuard.js';

export interface RejectionRun {
  /** The skill the cursor was stuck in. */
  skill: string;
  count: number;
  /** The turn's spend when the run's first rejection happened. */
  startedAt: Spend;
  tripped: boolean;
}

export function addRejection(run: RejectionRun | undefined, current: string, spent: Spend): RejectionRun {
  return run ? { ...run, count: run.count + 1 } : { skill: current, count: 1, startedAt: { ...spent }, tripped: false };
}

/** True when the run has reached the cap and has not tripped yet. */
export function rejectedCapDue(run: RejectionRun, cap: number): boolean {
  return !run.tripped && run.count >= cap;
}
