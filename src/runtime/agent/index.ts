/**
 * agent/ — the ReAct Agent (builder, options, tool limits, its chart's stages) and LLMCall, the same
 * chart with no tools and one iteration. Depends on events/, run/, cost/, providers/, tools/ and
 * skills/; never on compositions/ or routing/.
 */
export { Agent, AgentBuilder, type SkillGraphOptions } from './agent.js';
export type { AgentOptions } from './types.js';
export { DEFAULT_TOOL_LIMITS, type ToolLimits } from './config.js';
export { isToolDeadline } from './toolRunner.js';
export { buildLLMCall, LLMCall, LLMCallBuilder, type LLMCallOptions } from './llmCall.js';
export { StructuredOutputError, type OutputOf, type OutputSchema } from './structuredOutput.js';
export { estimateTokens, type ConversationWindow } from './window.js';
