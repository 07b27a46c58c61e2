/**
 * tools/ — the Tool type, the context a tool runs with, a source of tools that can change
 * (ToolSource), and what a tool's result becomes for the model: what agent/ runs and skills/ names,
 * so neither imports the other for it; and the one mechanism that turns a schema (Standard Schema or
 * JSON Schema) into what the model is sent and a validator (schema.ts). Depends on run/ (safe
 * serialisation, ConfigError) only.
 */
export { tool, type Tool, type ToolContext, type ToolSource } from './tool.js';
export { checkSchema, checkToolSchema, objectRootProblem, type CheckedSchema, type JsonSchema, type SchemaVerdict, type ToolArgs, type ToolInputSchema } from './schema.js';
export { toToolText, MAX_TOOL_RESULT_CHARS } from './toolResults.js';
