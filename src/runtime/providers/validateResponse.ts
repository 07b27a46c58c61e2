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

/** The reply as a fresh LLMResponse holding only the port's fields, or a malformed_response error. */
export function validateResponse(provider: string, reply: unknown): LLMResponse {
  const problem = (why: string) =>
    new ProviderError({ provider, kind: 'malformed_response', message: `${provider}: malformed response: ${why}` });
  if (!isRecord(reply)) throw problem(`the reply is ${kindOf(reply)}, not an object`);
  const { content, toolCalls, usage, stopReason, model, id, previousResponseId } = reply;
  if (typeof content !== 'string') throw problem(`content is ${kindOf(content)}, not a string`);
  if (!Array.isArray(toolCalls)) throw problem(`toolCalls is ${kindOf(toolCalls)}, not an array`);
  if (typeof stopReason !== 'string') throw problem(`stopReason is ${kindOf(stopReason)}, not a string`);
  for (const [field, value] of [['model', model], ['id', id], ['previousResponseId', previousResponseId]] as const) {
    if (value !== undefined && typeof value !== 'string') throw problem(`${field} is ${kindOf(value)}, not a string`);
  }
  // Optional fields are spread last: on Node 20's V8 a property written after a spread in a literal
  // is a slow runtime call, and this runs once per model call.
  return {
    content,
    toolCalls: toolCalls.map((call: unknown, index) => toolCall(call, index, problem)),
    stopReason,
    ...optional('usage', usage === undefined ? undefined : tokenUsage(usage, problem)),
    ...(typeof model === 'string' ? { model } : {}),
    ...(typeof id === 'string' ? { id } : {}),
    ...(typeof previousResponseId === 'string' ? { previousResponseId } : {}),
  };
}

type Problem = (why: string) => ProviderError;

function toolCall(call: unknown, index: number, problem: Problem): ToolCall {
  const at = `toolCalls[${index}]`;
  if (!isRecord(call)) throw problem(`${at} is ${kindOf(call)}, not an object`);
  if (typeof call.id !== 'string') throw problem(`${at}.id is ${kindOf(call.id)}, not a string`);
  // Any string: a name no tool has (even '') becomes an error result the model sees, as models do misname tools.
  if (typeof call.name !== 'string') throw problem(`${at}.name is ${kindOf(call.name)}, not a string`);
  if (!isRecord(call.args)) throw problem(`${at}.args is ${kindOf(call.args)}, not an object`);
  return { id: call.id, name: call.name, args: call.args };
}

/** The reply's usage under the one usage policy (usage.ts): absent counts are no usage, bad ones a malformed reply. */
function tokenUsage(usage: unknown, problem: Problem): TokenUsage | undefined {
  if (!isRecord(usage)) throw problem(`usage is ${kindOf(usage)}, not an object`);
  const read = readUsage(usage);
  if (read.problem !== undefined) throw problem(read.problem);
  return read.usage;
}
