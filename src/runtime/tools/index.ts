/**
 * tools/ — the Tool type, the context a tool runs with, and what its result becomes for the model:
 * what agent/ runs and skills/ names, so neither imports the other for it. Depends on run/ (safe
 * serialisation) only.
 */
export type { Tool, ToolContext } from './tool.js';
export { toToolText, MAX_TOOL_RESULT_CHARS } from './toolResults.js';
