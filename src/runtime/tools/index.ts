/**
 * tools/ — the Tool type, the context a tool runs with, a source of tools that can change
 * (ToolSource), and what a tool's result becomes for the model: what agent/ runs and skills/ names,
 * so neither imports the other for it. Depends on run/ (safe serialisation) only.
 */
export type { Tool, ToolContext, ToolSource } from './tool.js';
export { toToolText, MAX_TOOL_RESULT_CHARS } from './toolResults.js';
