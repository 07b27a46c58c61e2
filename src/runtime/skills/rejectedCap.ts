/**
 * Rejected-cap detection, pure. A rejection run counts read_skill refusals while the cursor stays
 * where it is; it trips once, when the count reaches the cap, however long the run goes on. The
 * caller ends the run (and so re-arms the guard) when the cursor moves.
 */
import type { Spend } from './spend.js';

export interface RejectionRun {
  /** The skill the cursor was stuck in. */
  skill: string;
  count: number;
  /** The turn's spend when the run's first rejection happened. */
  startedAt: Spend;
  tripped: boolean;
}

export function addRejection(run: RejectionRun | undefined, current: string, spent: Spend): RejectionRun {
  // Every field named: a property after a spread is a slow runtime call on Node 20's V8 (docs/architecture.md).
  if (run) return { skill: run.skill, count: run.count + 1, startedAt: run.startedAt, tripped: run.tripped };
  return { skill: current, count: 1, startedAt: { ...spent }, tripped: false };
}

/** True when the run has reached the cap and has not tripped yet. */
export function rejectedCapDue(run: RejectionRun, cap: number): boolean {
  return !run.tripped && run.count >= cap;
}
