/**
 * The fields a Chat Completions answer and its stream chunks share, read one way for both:
 * `finish_reason` normalised to the port's stop reasons, the usage block, and a tool call's signature.
 */
import type { TokenUsage } from '../../events/index.js';
import type { ProviderBoundary } from './boundary.js';
import { isRecord, reported } from './guards.js';
import { checkedUsage } from './usage.js';

const STOP_REASONS = new Map([
  ['stop', 'end_turn'],
  ['tool_calls', 'tool_use'],
  ['length', 'max_tokens'],
  ['content_filter', 'content_filter'],
]);

/**
 * The port's stop reason for a `finish_reason`; 'unknown' when the server gave none. A reply that
 * `refused` (the model's `refusal` text instead of content) and stopped normally stopped for
 * `content_filter`: the API says `stop` for it, which would read as an ordinary answer.
 */
export function stopReasonOf(finish: unknown, refused = false): string {
  if (refused && finish === 'stop') return 'content_filter';
  return typeof finish === 'string' ? (STOP_REASONS.get(finish) ?? finish) : 'unknown';
}

/**
 * The usage block under the one usage policy (usage.ts): undefined when the server sent none (or one
 * without both counts), a malformed_response when a count it sent is no count. OpenAI counts cached
 * prompt tokens inside prompt_tokens and reasoning tokens inside completion_tokens already, as the
 * GenAI semconv wants; both are also given apart.
 */
export function parseUsage(boundary: ProviderBoundary, usage: unknown, raw: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const prompt = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  return checkedUsage(boundary, raw, {
    input: reported(usage.prompt_tokens),
    output: reported(usage.completion_tokens),
    cacheRead: reported(prompt.cached_tokens),
    reasoning: reported(completion.reasoning_tokens),
  });
}

/**
 * A tool call's signature (ToolCall.signature) on this wire format: Gemini's OpenAI-compatible
 * endpoint gives a call's thought signature as `extra_content.google.thought_signature` and needs it
 * back there, as the native API does (gemini.ts). Other servers send none.
 */
export function signatureOf(call: Record<string, unknown>): string | undefined {
  const extra = call.extra_content;
  const google = isRecord(extra) ? extra.google : undefined;
  return isRecord(google) && typeof google.thought_signature === 'string' ? google.thought_signature : undefined;
}

/**
 * Whether calls' signatures go back to `model`: only to a Gemini model. A signature is Gemini's, and
 * a server that validates its messages (OpenAI's) refuses a field it never gave, so a conversation
 * made on Gemini and continued elsewhere (a fallback) sends none.
 */
export function sendsSignatures(model: string): boolean {
  return /gemini/i.test(model);
}

/** The wire field that sends `signature` back with its call (nothing when the call has none). */
export function signatureField(signature: string | undefined): { extra_content?: { google: { thought_signature: string } } } {
  return signature === undefined ? {} : { extra_content: { google: { thought_signature: signature } } };
}
