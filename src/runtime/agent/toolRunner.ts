/**
 * Executes one turn's tool calls, in parallel: validates arguments against each tool's JSON schema,
 * turns invalid calls, unknown tools and throwing tools into error results the model sees (never a
 * crash), and collects pause requests so the stage can pause the run after every call settled.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { ownTextOf, type EventError } from '../../events/index.js';
import type { ToolCall } from '../providers/index.js';
import { describeError, errorType } from '../run/index.js';
import { FIXED_ERROR_TYPES } from '../run/errorTypes.js';
import { toToolText } from './toolResults.js';
import type { Tool, ToolContext } from './types.js';

export type ToolStatus = 'ok' | 'error' | 'invalid_args' | 'unknown_tool' | 'paused';

export interface ToolOutcome {
  call: ToolCall;
  status: ToolStatus;
  text: string;
  error?: EventError;
  durationMs: number;
}

export interface CompiledTool {
  tool: Tool;
  validate: ValidateFunction;
}

const ajv = new Ajv({ allErrors: true, strict: false });

export function compileTool(tool: Tool): CompiledTool {
  return { tool, validate: ajv.compile(tool.inputSchema) };
}

export function validationMessage(compiled: CompiledTool): string {
  return ajv.errorsText(compiled.validate.errors, { dataVar: 'args' });
}

/** Runs one tool call to an outcome. `makeContext` supplies pause and signal. */
export async function runToolCall(
  call: ToolCall,
  compiled: CompiledTool | undefined,
  available: string[],
  context: ToolContext,
): Promise<ToolOutcome> {
  const started = performance.now();
  const done = (status: ToolStatus, text: string, error?: ToolOutcome['error']): ToolOutcome => ({
    call,
    status,
    text,
    error,
    durationMs: performance.now() - started,
  });
  if (!compiled) {
    // the name is the model's: bounded like any text the model gets back
    return done('unknown_tool', toToolText(`Unknown tool "${call.name}". Available tools: ${available.join(', ') || 'none'}.`), {
      type: FIXED_ERROR_TYPES.unknownTool,
      message: toToolText(`unknown tool ${call.name}`),
      ownText: true,
    });
  }
  if (!compiled.validate(call.args)) {
    const message = validationMessage(compiled);
    return done('invalid_args', `Invalid arguments for tool "${call.name}": ${message}. Fix them and call again.`, {
      type: FIXED_ERROR_TYPES.invalidArgs,
      message,
      ownText: true,
    });
  }
  try {
    const value = await untilCancelled(compiled.tool.execute(call.args, context), context.signal);
    return done('ok', toToolText(value));
  } catch (error) {
    // an error message can be as large as a result: bounded the same way
    const detail = describeError(error);
    return done('error', toToolText(`Tool "${call.name}" failed: ${detail}`), {
      type: errorType(error),
      message: toToolText(detail),
      ...ownTextOf(error),
    });
  }
}

/**
 * The tool's result, or a rejection as soon as the run's signal fires: a tool that ignores the
 * signal (and never settles) must not hold a cancelled run.
 */
function untilCancelled<T>(work: T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve(work);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}
