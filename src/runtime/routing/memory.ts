/**
 * What a router remembers of its decisions, for decisions() only: the most recent ones, newest
 * last. Routing itself never reads it (a swarm gets its router's choice through the run's state).
 * A router outlives runs, so the memory is bounded.
 */

/** How many recent decisions a router keeps. */
export const DECISION_WINDOW = 100;

export interface RoutingDecision {
  routerId: string;
  /** What the router was asked. */
  input: string;
  /** The chosen agent, when the model named one from the roster. */
  agentId?: string;
  /** What the model named when it is not in the roster (the decision then routes nowhere). */
  unknownAgentId?: string;
  /** The message handed on: to the chosen agent, or the final answer when no agent was chosen. */
  message: string;
  /** The model's stated reason: trace only, never sent to a model. */
  reason?: string;
}

export class DecisionMemory {
  private readonly history: RoutingDecision[] = [];

  record(decision: RoutingDecision): void {
    this.history.push(decision);
    if (this.history.length > DECISION_WINDOW) this.history.shift();
  }

  recent(): RoutingDecision[] {
    return this.history.map((decision) => ({ ...decision }));
  }
}
