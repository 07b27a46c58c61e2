/** The ReAct Agent: builder, tool types, and what a tool's result becomes. */
export { Agent, AgentBuilder, type SkillGraphOptions } from './agent.js';
export type { AgentOptions, Tool, ToolContext, ToolSource } from './types.js';
export { DEFAULT_TOOL_LIMITS, type ToolLimits } from './config.js';
export { safeStringify, toToolText, MAX_TOOL_RESULT_CHARS } from './toolResults.js';
