/**
 * routing/ — LLM routing: the router (roster compiled into the prompt, validated decision) and the
 * LLM-routed swarm. Depends on events/, run/, cost/, providers/, compositions/ (Swarm, member checks)
 * and agent/ (LLMCall, the router's model call); the top of the runtime.
 */
export { llmRouter, RouterStep, type LlmRouter, type LlmRouterOptions } from './router.js';
export { DECISION_WINDOW, type RoutingDecision } from './memory.js';
export { llmSwarm, type LlmSwarmOptions } from './llmSwarm.js';
export { RoutingDecisionError, type RoutingProblem } from './errors.js';
export { compileRouterPrompt, type RosterEntry } from './prompt.js';
export { parseRoutingDecision, type ParsedDecision } from './decision.js';
