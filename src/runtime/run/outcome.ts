/**
 * How a top-level run (or resumed run segment) ended, decided once, here. The tracker listens to the
 * run's hub and keeps only what the top-level member itself said: an early stop of a nested member
 * (an agent that hit its cap inside a swarm) is that member's outcome, never the run's. The runner
 * asks it for the outcome when the run settles and hands that one value to every instrument, so the
 * run span, the runs metric, the CLI summary and the result's `stopReason` (stopReasonOf) cannot
 * disagree.
 */
import { handleEvent, type EventHandlers, type EventType, type TypedEvent } from '../../events/index.js';
import type { FailureOrigin } from './errors.js';
import type { RunEvents } from './runEvents.js';
import type { StopReason } from './result.js';

/** Why a run that returned an answer stopped early (footprint.run.stop_reason on its span). */
export type EarlyStop = Extract<StopReason, 'loop_guard' | 'max_iterations' | 'budget_exhausted'>;

export type RunOutcome =
  | { status: 'ok'; output: string; answeredBy?: string }
  | { status: 'stopped_early'; output: string; reason: EarlyStop; answeredBy?: string }
  | { status: 'paused' }
  | { status: 'failed'; error: unknown; origin?: FailureOrigin }
  | { status: 'cancelled'; error: unknown; origin?: FailureOrigin };

/** The outcome as telemetry and the CLI label it. */
export type RunOutcomeLabel = 'ok' | 'stopped_early' | 'error' | 'cancelled' | 'paused';

const LABELS: { readonly [S in RunOutcome['status']]: RunOutcomeLabel } = {
  ok: 'ok',
  stopped_early: 'stopped_early',
  failed: 'error',
  cancelled: 'cancelled',
  paused: 'paused',
};

export function outcomeLabel(outcome: RunOutcome): RunOutcomeLabel {
  return LABELS[outcome.status];
}

/** The result's stopReason for an outcome that resolves run() (a failure rejects it: none). */
export function stopReasonOf(outcome: RunOutcome): StopReason | undefined {
  switch (outcome.status) {
    case 'ok':
      return 'answered';
    case 'stopped_early':
      return outcome.reason;
    case 'paused':
      return 'paused';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      return undefined;
  }
}

export class OutcomeTracker {
  private stopReason?: EarlyStop;
  private readonly unsubscribe: () => void;

  constructor(events: RunEvents) {
    this.unsubscribe = events.subscribe((event) => this.onEvent(event), Object.keys(this.handlers) as EventType[]);
  }

  /**
   * The run returned an answer: answered, unless its top-level member stopped early. `answeredBy`: the
   * model call (its callId) whose output became the answer, when one did (absent for a Parallel's merge).
   */
  answered(output: string, answeredBy?: string): RunOutcome {
    this.unsubscribe();
    const by = answeredBy === undefined ? undefined : { answeredBy };
    return this.stopReason === undefined ? { status: 'ok', output, ...by } : { status: 'stopped_early', output, reason: this.stopReason, ...by };
  }

  paused(): RunOutcome {
    this.unsubscribe();
    return { status: 'paused' };
  }

  failed(failure: { error: unknown; origin?: FailureOrigin; cancelled: boolean }): RunOutcome {
    this.unsubscribe();
    return { status: failure.cancelled ? 'cancelled' : 'failed', error: failure.error, origin: failure.origin };
  }

  private onEvent(event: TypedEvent): void {
    // Only the top-level member decides the run's outcome.
    if (event.meta.subflowPath.length === 0) handleEvent(this.handlers, event);
  }

  private readonly handlers: EventHandlers = {
    'footprint.agent.turn_end': ({ payload }) => {
      // A loop guard's stop (a skill graph's loop-guard trip) or the iteration cap.
      if (payload.outcome === 'stopped_early') this.stopReason = payload.stoppedEarly?.reason === 'loop_guard' ? 'loop_guard' : 'max_iterations';
    },
    'footprint.composition.exit': ({ payload }) => {
      // A Loop at its ceiling ran out of passes; a swarm out of hand-offs spent its budget.
      if (payload.status === 'budget_exhausted') this.stopReason = payload.kind === 'loop' ? 'max_iterations' : 'budget_exhausted';
    },
  };
}
