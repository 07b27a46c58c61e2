/**
 * What a Gemini `GenerateContentResponse` and each chunk of its stream share, read one way for both:
 * the first candidate's parts (text, and `functionCall` parts as tool calls with the part's
 * `thoughtSignature`; thought summaries carry nothing the port models), its `finishReason` as the
 * port's stop reason, and `usageMetadata`.
 */
import type { TokenUsage } from '../../events/index.js';
import type { ProviderBoundary } from './boundary.js';
import { isCount, isRecord, reported } from './guards.js';
import type { ToolCall } from './types.js';
import { checkedUsage } from './usage.js';
import { toolCallOf } from '../run/index.js';

const STOP_REASONS = new Map([
  ['STOP', 'end_turn'],
  ['MAX_TOKENS', 'max_tokens'],
  ['SAFETY', 'content_filter'],
  ['RECITATION', 'content_filter'],
  ['BLOCKLIST', 'content_filter'],
  ['PROHIBITED_CONTENT', 'content_filter'],
  ['SPII', 'content_filter'],
  ['IMAGE_SAFETY', 'content_filter'],
  ['IMAGE_PROHIBITED_CONTENT', 'content_filter'],
  ['IMAGE_RECITATION', 'content_filter'],
  // The model tried to call a function and failed to (a call it could not form, or one to a tool it
  // was not offered): no answer, an error, not an empty reply that finished normally.
  ['MALFORMED_FUNCTION_CALL', 'error'],
  ['UNEXPECTED_TOOL_CALL', 'error'],
]);

/** The port's stop reason for a finishReason; a reply that asked for calls and stopped is `tool_use`. */
export function stopReasonOf(finish: unknown, calledTools: boolean): string {
  if (typeof finish !== 'string') return 'unknown';
  if (finish === 'STOP' && calledTools) return 'tool_use';
  return STOP_REASONS.get(finish) ?? finish.toLowerCase();
}

/**
 * usageMetadata under the one usage policy (usage.ts). promptTokenCount includes the cached tokens
 * (cachedContentTokenCount); candidatesTokenCount excludes the thinking tokens (thoughtsTokenCount),
 * which the GenAI semconv's output count includes: output = candidates + thoughts, reasoning apart.
 */
export function parseUsage(boundary: ProviderBoundary, usage: unknown, raw: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const prompt = reported(usage.promptTokenCount);
  // The API writes proto3 JSON, which leaves a count of 0 out: with the prompt counted, no
  // candidatesTokenCount means nothing was generated (a blocked prompt, a MAX_TOKENS stop spent
  // thinking), not an unknown count.
  const candidates = reported(usage.candidatesTokenCount) ?? (prompt === undefined ? undefined : 0);
  const thoughts = reported(usage.thoughtsTokenCount);
  const output = isCount(candidates) && isCount(thoughts) ? candidates + thoughts : candidates;
  return checkedUsage(boundary, raw, {
    input: prompt,
    output,
    cacheRead: reported(usage.cachedContentTokenCount),
    reasoning: thoughts,
  });
}

/** The first candidate's text and calls; `callId` names a call the server gave no id. */
export function candidateParts(
  boundary: ProviderBoundary,
  candidate: Record<string, unknown>,
  raw: unknown,
  callId: (index: number) => string,
): { text: string; calls: ToolCall[] } {
  const content = candidate.content;
  // A candidate stopped before any output (a safety stop, MAX_TOKENS at once) has no content or no parts.
  const parts = isRecord(content) && Array.isArray(content.parts) ? (content.parts as unknown[]) : [];
  let text = '';
  const calls: ToolCall[] = [];
  parts.forEach((part, index) => {
    if (!isRecord(part)) throw boundary.malformed(`candidates[0].content.parts[${index}] is not a part`, raw);
    if (typeof part.text === 'string' && part.thought !== true) text += part.text;
    if (part.functionCall !== undefined) {
      const call = part.functionCall;
      if (!isRecord(call) || typeof call.name !== 'string' || (call.args !== undefined && !isRecord(call.args))) {
        throw boundary.malformed(`candidates[0].content.parts[${index}] is a functionCall without a name and object args`, raw);
      }
      const args = (call.args as Record<string, unknown> | undefined) ?? {};
      // The part's thoughtSignature goes back with the call (gemini.ts): Gemini 3 refuses a turn's function calls without theirs.
      calls.push(toolCallOf(typeof call.id === 'string' ? call.id : callId(calls.length), call.name, args, { signature: part.thoughtSignature }));
    }
  });
  return { text, calls };
}
