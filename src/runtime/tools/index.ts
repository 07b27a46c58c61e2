/**
 * Tools: the Tool type, the context a tool runs with, and what its result becomes for the model.
 * Depends on run/ (safe serialisation).
 */
export type { Tool, ToolContext } from './tool.js';
export { toToolText, MAX_TOOL_RESULT_CHARS } from './toolResults.js';
