/** The ReAct Agent: builder, tool types, and what a tool's result becomes. */
export { Agent, AgentBuilder, type SkillGraphOptions } from './agent.js';
export type { AgentOptions, Tool, ToolContext } from './types.js';
export { safeStringify, toToolText, MAX_TOOL_RESULT_CHARS } from './toolResults.js';
