/**
 * Opt-in content capture. Prompts, completions, tool arguments and results, the user's message and
 * the answer are recorded only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT asks for it
 * on spans (span_only, span_and_event or true, any case). When on, they go into the GenAI semconv
 * attributes as JSON strings in the conventions' message shape, each capped at MAX_CONTENT_CHARS
 * with the cut marked while keeping the JSON valid.
 */
import { captureFromEnv, type CapturedMessage } from '../../events/index.js';
import { finishReason } from './semconv.js';

export { captureFromEnv };

export const MAX_CONTENT_CHARS = 8 * 1024;
/** Longer than any '…[truncated N chars]' marker. */
const CUT_MARKER_ROOM = 32;

type Part =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments?: unknown }
  | { type: 'tool_call_response'; id: string; response: string };

interface Message {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

export function systemInstructions(systemPrompt: string): string {
  return boundedJson([{ type: 'text', content: systemPrompt }]);
}

export function inputMessages(messages: readonly CapturedMessage[]): string {
  return boundedJson(messages.map(toMessage));
}

export function outputMessages(content: string, toolCalls: readonly { id: string; name: string }[], stopReason: string): string {
  const parts: Part[] = [];
  if (content !== '') parts.push({ type: 'text', content });
  for (const call of toolCalls) parts.push({ type: 'tool_call', id: call.id, name: call.name });
  return boundedJson([{ role: 'assistant', parts, finish_reason: finishReason(stopReason) }]);
}

/** The user's message as a one-message list. */
export function textMessage(role: 'user', text: string): string {
  return boundedJson([{ role, parts: [{ type: 'text', content: text }] }]);
}

/** An agent's answer as the one output message, with why the turn finished (the schema requires it). */
export function answerMessage(text: string, finish: string): string {
  return boundedJson([{ role: 'assistant', parts: [{ type: 'text', content: text }], finish_reason: finish }]);
}

function toMessage(message: CapturedMessage): Message {
  if (message.role === 'tool') {
    return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.toolCallId ?? '', response: message.content }] };
  }
  const parts: Part[] = [];
  if (message.content !== '') parts.push({ type: 'text', content: message.content });
  for (const call of message.toolCalls ?? []) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.args });
  return { role: message.role, parts };
}

/**
 * JSON of `value` in at most `max` chars. Too long: every string longer than a limit is cut (with
 * '…[truncated N chars]'), the largest limit that fits wins. If even that cannot fit, a small JSON
 * object says so and keeps the head of the text.
 */
export function boundedJson(value: unknown, max = MAX_CONTENT_CHARS): string {
  const full = stringify(value, Infinity);
  if (full.length <= max) return full;
  let low = 0;
  let high = max;
  let best: string | undefined;
  while (low <= high) {
    const limit = Math.floor((low + high) / 2);
    const text = stringify(value, limit);
    if (text.length <= max) {
      best = text;
      low = limit + 1;
    } else {
      high = limit - 1;
    }
  }
  if (best !== undefined) return best;
  const note = { truncated: true, chars: full.length, head: '' };
  let head = full.slice(0, Math.max(0, max - JSON.stringify(note).length));
  let text = JSON.stringify({ ...note, head });
  // Escaping makes the head longer in JSON than in characters: shorten until it fits.
  while (text.length > max && head.length > 0) {
    head = head.slice(0, Math.max(0, head.length - (text.length - max)));
    text = JSON.stringify({ ...note, head });
  }
  return text;
}

function stringify(value: unknown, limit: number): string {
  const seen = new WeakSet<object>();
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => {
        // Cut only where the marked cut is shorter, so a larger limit never gives a shorter text.
        if (typeof v === 'string' && v.length > limit + CUT_MARKER_ROOM) return `${v.slice(0, limit)}…[truncated ${v.length - limit} chars]`;
        if (typeof v === 'bigint') return v.toString();
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[circular]';
          seen.add(v);
        }
        return v;
      }) ?? 'null'
    );
  } catch {
    return '"[unserializable]"';
  }
}
