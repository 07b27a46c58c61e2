/**
 * The runtime's one check on what any provider answered — scripted, HTTP or custom — before a single
 * field of it is used: a reply that does not have the LLMResponse shape, or whose token usage breaks
 * the one usage policy (usage.ts: an absent count is no usage, a present one must be finite and
 * non-negative), becomes a ProviderError `malformed_response` instead of a TypeError deep in the
 * agent (or a negative token count and a null cost in the telemetry). Messages name the field and
 * what kind of value it held, never the value: a reply is model output and may carry content or
 * secrets.
 */
import { ProviderError } from './errors.js';
import { isRecord, kindOf, optional } from './guards.js';
import { readUsage } from './usage.js';
import type { LLMResponse, ToolCall } from './types.js';
import type { TokenUsage } from '../../events/index.js';
import { toolCallOf } from '../run/index.js';

/** The reply as a fresh LLMResponse holding only the port's fields, or a malformed_response error. */
export function validateResponse(provider: string, reply: unknown): LLMResponse {
  if (!isRecord(reply)) throw malformed(provider, `the reply is ${kindOf(reply)}, not an object`);
  const { content, toolCalls, usage, stopReason, model, id, previousResponseId } = reply;
  if (typeof content !== 'string') throw malformed(provider, `content is ${kindOf(content)}, not a string`);
  if (!Array.isArray(toolCalls)) throw malformed(provider, `toolCalls is ${kindOf(toolCalls)}, not an array`);
  if (typeof stopReason !== 'string') throw malformed(provider, `stopReason is ${kindOf(stopReason)}, not a string`);
  optionalString(provider, 'model', model);
  optionalString(provider, 'id', id);
  optionalString(provider, 'previousResponseId', previousResponseId);
  // Optional fields are spread last: on Node 20's V8 a property written after a spread in a literal
  // is a slow runtime call, and this runs once per model call. What checks the reply makes no
  // closure or array of its own: only the reply's new arrays and objects are allocated.
  // Every index, without a closure per reply: a hole of a sparse array is a missing call (the agent would trip on it).
  const calls: ToolCall[] = new Array(toolCalls.length);
  for (let index = 0; index < toolCalls.length; index++) calls[index] = toolCall(provider, toolCalls[index], index);
  return {
    content,
    toolCalls: calls,
    stopReason,
    ...optional('usage', usage === undefined ? undefined : tokenUsage(provider, usage)),
    ...(typeof model === 'string' ? { model } : {}),
    ...(typeof id === 'string' ? { id } : {}),
    ...(typeof previousResponseId === 'string' ? { previousResponseId } : {}),
  };
}

/** The reply is not what the port promises: a ProviderError malformed_response saying `why`. */
function malformed(provider: string, why: string): ProviderError {
  return new ProviderError({ provider, kind: 'malformed_response', message: `${provider}: malformed response: ${why}` });
}

/** An optional string field: absent, or a string. */
function optionalString(provider: string, field: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string') throw malformed(provider, `${field} is ${kindOf(value)}, not a string`);
}

function toolCall(provider: string, call: unknown, index: number): ToolCall {
  if (!isRecord(call)) throw malformed(provider, `toolCalls[${index}] is ${kindOf(call)}, not an object`);
  if (typeof call.id !== 'string') throw malformed(provider, `toolCalls[${index}].id is ${kindOf(call.id)}, not a string`);
  // Any string: a name no tool has (even '') becomes an error result the model sees, as models do misname tools.
  if (typeof call.name !== 'string') throw malformed(provider, `toolCalls[${index}].name is ${kindOf(call.name)}, not a string`);
  if (!isRecord(call.args)) throw malformed(provider, `toolCalls[${index}].args is ${kindOf(call.args)}, not an object`);
  optionalString(provider, `toolCalls[${index}].signature`, call.signature);
  optionalString(provider, `toolCalls[${index}].argsText`, call.argsText);
  return toolCallOf(call.id, call.name, call.args, call);
}

/** The reply's usage under the one usage policy (usage.ts): absent counts are no usage, bad ones a malformed reply. */
function tokenUsage(provider: string, usage: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) throw malformed(provider, `usage is ${kindOf(usage)}, not an object`);
  const read = readUsage(usage);
  if (read.problem !== undefined) throw malformed(provider, read.problem);
  return read.usage;
}
