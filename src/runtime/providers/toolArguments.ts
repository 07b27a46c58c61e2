/**
 * A tool call's arguments as the OpenAI formats send them (and as any stream assembles them): JSON
 * text the model wrote, which models do get wrong. Text that is no JSON object is not the reply's
 * fault but the call's: the call keeps it as `argsText` with empty `args`, and the agent answers it
 * with an error result the model sees (agent/toolRunner.ts), as it answers arguments its schema refuses.
 */
import { isRecord } from './guards.js';
import type { ToolCall } from './types.js';

/** The arguments object (empty text: none), or `{}` and the text as written when it is no JSON object. */
export function callArguments(text: string): Pick<ToolCall, 'args' | 'argsText'> {
  if (text.trim() === '') return { args: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) return { args: parsed };
  } catch {
    // not JSON: kept as written, below
  }
  return { args: {}, argsText: text };
}

/** The text a call's arguments are sent back as on the OpenAI formats: as the model wrote them. */
export function argumentsText(call: ToolCall): string {
  return call.argsText ?? JSON.stringify(call.args);
}
