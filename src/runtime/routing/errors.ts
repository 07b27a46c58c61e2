/** The one routing failure: the router model's answer is not a usable decision. */
export type RoutingProblem = 'not_json' | 'not_object' | 'bad_field';

/**
 * Thrown (and so failing the run at the router's 'decide' stage) when the router model's answer is not
 * a valid `{ agentId?, message, reason? }` object. `rawOutput` is the model's exact text, for triage;
 * nothing is ever routed on a guess.
 */
export class RoutingDecisionError extends Error {
  override readonly name = 'RoutingDecisionError';
  constructor(
    message: string,
    readonly rawOutput: string,
    readonly problem: RoutingProblem,
  ) {
    super(message);
  }
}
