/**
 * What a router remembers of its decisions, keyed by the message each one hands on (the string
 * swarm's route() is later asked about). Inside a run, lookups read only that run's decisions, so
 * concurrent runs of one router never see each other's; outside any run they read the most recent.
 * A router outlives runs, so the memory is bounded.
 */
import { currentHub, type RunHub } from '../run/index.js';

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
  private readonly byRun = new WeakMap<RunHub, Map<string, RoutingDecision>>();
  private readonly latest = new Map<string, RoutingDecision>();
  private readonly history: RoutingDecision[] = [];

  record(decision: RoutingDecision): void {
    const hub = currentHub();
    if (hub) {
      let run = this.byRun.get(hub);
      if (!run) this.byRun.set(hub, (run = new Map()));
      run.set(decision.message, decision);
    }
    this.latest.delete(decision.message);
    this.latest.set(decision.message, decision);
    if (this.latest.size > DECISION_WINDOW) this.latest.delete(this.latest.keys().next().value!);
    this.history.push(decision);
    if (this.history.length > DECISION_WINDOW) this.history.shift();
  }

  lookup(message: string): RoutingDecision | undefined {
    const hub = currentHub();
    return hub ? this.byRun.get(hub)?.get(message) : this.latest.get(message);
  }

  recent(): RoutingDecision[] {
    return this.history.map((decision) => ({ ...decision }));
  }
}
