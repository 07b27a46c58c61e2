/**
 * Opt-in content capture. Prompts, completions, tool arguments and results, the user's message and
 * the answer are recorded only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT asks for it
 * on spans (span_only, span_and_event or true, any case). When on, they go into the GenAI semconv
 * attributes as JSON strings in the conventions' message shape, each capped at MAX_CONTENT_CHARS
 * with the cut marked while keeping the JSON valid: long strings are cut first; a message list that
 * still does not fit loses whole messages from the middle (then a message whole parts from the
 * middle), replaced by one marker, so it stays the array of messages the schemas require.
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
  | { type: 'tool_call_response'; id: string; response: string }
  | { type: 'blob'; modality: 'image'; mime_type: string; content: string }
  | { type: 'uri'; modality: 'image'; mime_type: string; uri: string };

interface Message {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

export function systemInstructions(systemPrompt: string): string {
  return boundedJson([{ type: 'text', content: systemPrompt }]);
}

export function inputMessages(messages: readonly CapturedMessage[]): string {
  return boundedMessages(messages.map(toMessage));
}

export function outputMessages(content: string, toolCalls: readonly { id: string; name: string }[], stopReason: string): string {
  const parts: Part[] = [];
  if (content !== '') parts.push({ type: 'text', content });
  for (const call of toolCalls) parts.push({ type: 'tool_call', id: call.id, name: call.name });
  return boundedMessages([{ role: 'assistant', parts, finish_reason: finishReason(stopReason) }]);
}

/**
 * Tool definitions in the conventions' shape (opt-in, so with description and parameters). A list
 * too long for the cap keeps every tool by name only, then as many names as fit.
 */
export function toolDefinitions(tools: readonly { name: string; description: string; inputSchema: unknown }[]): string {
  const full = tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.inputSchema }));
  const fitted = fitJson(full, MAX_CONTENT_CHARS, KEPT_STRING_CHARS);
  if (fitted !== undefined) return fitted;
  const names = tools.map((tool) => ({ type: 'function', name: tool.name }));
  return fitJson(names, MAX_CONTENT_CHARS, 0) ?? largestFit(names.length, (kept) => names.slice(0, kept), (value) => fitJson(value, MAX_CONTENT_CHARS, 0)) ?? '[]';
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
    return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.toolCallId ?? '', response: textOf(message.content) }] };
  }
  const parts: Part[] = contentParts(message.content);
  for (const call of message.toolCalls ?? []) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.args });
  return { role: message.role, parts };
}

/** A message's content as the conventions' parts: text parts, images as blob (inline) or uri parts. */
function contentParts(content: CapturedMessage['content']): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', content }];
  const parts: Part[] = [];
  for (const part of content) {
    if (part.type === 'text') parts.push({ type: 'text', content: part.text });
    else if (part.data !== undefined) parts.push({ type: 'blob', modality: 'image', mime_type: part.mediaType, content: part.data });
    else parts.push({ type: 'uri', modality: 'image', mime_type: part.mediaType, uri: part.url ?? '' });
  }
  return parts;
}

function textOf(content: CapturedMessage['content']): string {
  return typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/**
 * A message list as JSON in at most `max` chars, still a message list: strings cut as boundedJson
 * does; if that is not enough, the most messages that fit are kept (the first, for its context,
 * and the latest) around one marker message saying how many were left out; if one message alone
 * is too long, its parts are thinned the same way.
 */
function boundedMessages(messages: readonly Message[], max = MAX_CONTENT_CHARS): string {
  // Strings are cut no shorter than KEPT_STRING_CHARS while whole messages or parts can go instead.
  const fit = (value: unknown) => fitJson(value, max, KEPT_STRING_CHARS);
  const whole = fit(messages);
  if (whole !== undefined) return whole;
  const thinned = largestFit(messages.length, (kept) => withoutMiddle(messages, kept, omittedMessages), fit);
  if (thinned !== undefined) return thinned;
  const last = messages[messages.length - 1];
  if (last !== undefined) {
    const single = (kept: number) => [{ ...last, parts: withoutMiddle(last.parts, kept, omittedParts) }];
    const parts = largestFit(last.parts.length, single, fit) ?? fitJson(single(1), max, 0);
    if (parts !== undefined) return parts;
  }
  return boundedJson([omittedMessages(messages.length)], max);
}

/** How short a string of a message may be cut before whole messages are dropped instead. */
const KEPT_STRING_CHARS = 256;

const omittedMessages = (count: number): Message => ({ role: 'system', parts: [{ type: 'text', content: `[${count} messages omitted to fit ${MAX_CONTENT_CHARS} chars]` }] });
const omittedParts = (count: number): Part => ({ type: 'text', content: `[${count} parts omitted to fit ${MAX_CONTENT_CHARS} chars]` });

/** `kept` of `items` (the first, then the latest), with a marker for the ones in between. */
function withoutMiddle<T>(items: readonly T[], kept: number, marker: (omitted: number) => T): T[] {
  if (kept >= items.length) return [...items];
  const head = kept >= 2 ? [items[0]!] : [];
  const tail = items.slice(items.length - (kept - head.length));
  return [...head, marker(items.length - kept), ...tail];
}

/** The JSON of build(kept) for the largest kept in 1..count-1 whose JSON fits (all `count` is known not to). */
function largestFit(count: number, build: (kept: number) => unknown, fit: (value: unknown) => string | undefined): string | undefined {
  let low = 1;
  let high = count - 1;
  let best: string | undefined;
  while (low <= high) {
    const kept = Math.floor((low + high) / 2);
    const text = fit(build(kept));
    if (text !== undefined) {
      best = text;
      low = kept + 1;
    } else {
      high = kept - 1;
    }
  }
  return best;
}

/**
 * JSON of `value` in at most `max` chars. Too long: every string longer than a limit is cut (with
 * '…[truncated N chars]'), the largest limit that fits wins. If even that cannot fit, a small JSON
 * object says so and keeps the head of the text (message lists use boundedMessages instead).
 */
export function boundedJson(value: unknown, max = MAX_CONTENT_CHARS): string {
  const fitted = fitJson(value, max, 0);
  if (fitted !== undefined) return fitted;
  const full = stringify(value, Infinity);
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

/**
 * JSON of `value` in at most `max` chars with strings cut to no fewer than `floor` chars, or
 * undefined if no such cut makes it fit.
 */
function fitJson(value: unknown, max: number, floor: number): string | undefined {
  const full = stringify(value, Infinity);
  if (full.length <= max) return full;
  let low = floor;
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
  return best;
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
