/**
 * llmSwarm: a swarm whose routing is an LLM router. Before every turn the router step runs (one
 * model call per hand-off, traced and costed as the router): it picks the first agent, and after each
 * agent's reply decides whether another agent takes over or the work is done: one router call per
 * hand-off plus one to finish. The answer is the last agent's reply, as the agent gave it (with
 * `rewriteAnswer: true`, the router's closing message instead; a router that hands to no agent at
 * all answers with its message). Each agent gets the conversation the swarm was given and the
 * router's message for it. The router's JSON contract is in docs/api.md. The router sees the original request and the last reply, never its own
 * earlier reasons. The router hands its choice to the swarm through the run's state (its output), and
 * the swarm reports each routing act as one decision (route_decided, matched 'llm', the router's
 * reason as evidence). Stop reasons are the swarm's (see swarm.ts); an agent the router invents ends
 * the swarm as 'no_route', its decision recorded as not in the roster.
 *
 *   const desk = llmSwarm({ provider, model, id: 'desk', agents: [
 *     { id: 'billing', description: 'Invoices and refunds.', runner: billingAgent },
 *     { id: 'tech', description: 'Errors and outages.', runner: techAgent } ] });
 */
import { checkMember, Swarm } from '../compositions/index.js';
import type { PricingTable } from '../cost/index.js';
import type { LLMProvider } from '../providers/index.js';
import type { Runner } from '../run/index.js';
import { llmRouter, type RoutedMessage } from './router.js';

export interface LlmSwarmOptions {
  provider: LLMProvider;
  model: string;
  agents: { id: string; description: string; runner: Runner }[];
  maxHandoffs?: number;
  instruction?: string;
  id?: string;
  /** The router's id (and mount id inside the swarm); default 'router'. */
  routerId?: string;
  pricing?: PricingTable;
  /** Deadline of the router's model call in ms (LlmRouterOptions.modelCallTimeoutMs; default 600 000). */
  modelCallTimeoutMs?: number;
  /** The router's closing `message` (its rewrite of the last reply) is the answer, not the agent's reply. Default false. */
  rewriteAnswer?: boolean;
}

export function llmSwarm(options: LlmSwarmOptions): Swarm {
  const id = options.id ?? 'swarm';
  const routerId = options.routerId ?? 'router';
  const agents = Array.isArray(options.agents) ? options.agents : [];
  const router = llmRouter({
    provider: options.provider,
    model: options.model,
    agents: agents.map(({ id: agentId, description }) => ({ id: agentId, description })),
    instruction: options.instruction,
    id: routerId,
    pricing: options.pricing,
    modelCallTimeoutMs: options.modelCallTimeoutMs,
  });
  checkMember(`llmSwarm "${id}"`, routerId, router.step, [], []);
  return Swarm.fromOptions(
    { id, agents: agents.map(({ id: agentId, runner, description }) => ({ id: agentId, runner, description })), pick: ({ routed }) => routed, maxHandoffs: options.maxHandoffs },
    { mountId: routerId, runner: router.step, input: (turn) => ({ message: routerQuestion(turn), handoff: true }), read: readRouted, rewritesAnswer: options.rewriteAnswer === true },
  );
}

/** The router step's hand-off output (a RoutedMessage), as the swarm's next message and choice. */
function readRouted(output: unknown): { message: string; chosen?: string; reason?: string } {
  const routed = (typeof output === 'object' && output !== null ? output : {}) as Partial<RoutedMessage>;
  return {
    message: typeof routed.message === 'string' ? routed.message : '',
    chosen: typeof routed.requested === 'string' ? routed.requested : undefined,
    reason: typeof routed.reason === 'string' ? routed.reason : undefined,
  };
}

/** What the router is asked before a turn: the request, and the last agent's reply once there is one. */
export function routerQuestion(turn: { request: string; current: string; lastAgent?: string }): string {
  if (turn.lastAgent === undefined) return turn.request;
  return `The user asked:\n${turn.request}\n\nAgent "${turn.lastAgent}" replied:\n${turn.current}`;
}
