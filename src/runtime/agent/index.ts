/** The ReAct Agent: its builder, options and tool limits. */
export { Agent, AgentBuilder, type SkillGraphOptions } from './agent.js';
export type { AgentOptions } from './types.js';
export { DEFAULT_TOOL_LIMITS, type ToolLimits } from './config.js';
