/** The ReAct Agent: builder, tool types and the default route-guard hook. */
export { Agent, AgentBuilder, setDefaultRouteGuard, type SkillGraphOptions, type RouteGuardOptions, type RouteGuardFactory } from './agent.js';
export type { AgentOptions, Tool, ToolContext } from './types.js';
export { DEFAULT_TOOL_LIMITS, type ToolLimits } from './config.js';
export { safeStringify, toToolText, MAX_TOOL_RESULT_CHARS } from './toolResults.js';
