/** The one routing failure, RoutingDecisionError, and what was wrong with the answer. */
import { markOwnText } from '../../events/index.js';

/** What was wrong with the router model's answer. */
export type RoutingProblem = 'not_json' | 'not_object' | 'bad_field';

/**
 * Thrown (and so failing the run at the router's 'decide' stage) when the router model's answer is not
 * a valid `{ agentId?, message, reason? }` object. `rawOutput` is the model's exact text, for triage;
 * nothing is ever routed on a guess.
 */
export class RoutingDecisionError extends Error {
  override readonly name = 'RoutingDecisionError';
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
  constructor(
    message: string,
    readonly rawOutput: string,
    readonly problem: RoutingProblem,
  ) {
    super(message);
  }
}
