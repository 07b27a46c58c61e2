/**
 * A Gemini `streamGenerateContent?alt=sse` stream read as the port's stream parts (stream.ts). Each
 * event is a whole GenerateContentResponse holding the next piece of the first candidate: text parts
 * are text deltas, a functionCall part is a whole tool call (one fragment with its arguments), the
 * last chunk carries the `finishReason`, and `usageMetadata` (repeated, growing) is read from the last
 * chunk that has it. The stream has no end marker: it ends when the body does, after a finishReason
 * (without one, the reply did not finish). A chunk `{"error": …}` fails it with a typed `stream_error`.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { TokenUsage } from '../../events/index.js';
import type { ProviderBoundary } from './boundary.js';
import { candidateParts, parseUsage, stopReasonOf } from './geminiFields.js';
import { isRecord } from './guards.js';
import { wholeCall, type LLMStreamPart } from './stream.js';
import { eventJson, streamError } from './streamEvents.js';

export async function* geminiStreamParts(
  boundary: ProviderBoundary,
  events: AsyncIterable<EventSourceMessage>,
  callId: (index: number) => string,
): AsyncGenerator<LLMStreamPart> {
  let ordinal = 0;
  let calls = 0;
  let finishReason: unknown;
  let usage: TokenUsage | undefined;
  let model: string | undefined;
  let id: string | undefined;
  let blocked = false;
  for await (const event of events) {
    ordinal++;
    const chunk = eventJson(boundary, event.data, ordinal);
    if (chunk.error !== undefined && chunk.error !== null) throw streamError(boundary, event.data, ordinal);
    if (typeof chunk.modelVersion === 'string') model = chunk.modelVersion;
    if (typeof chunk.responseId === 'string') id = chunk.responseId;
    usage = parseUsage(boundary, chunk.usageMetadata, event.data) ?? usage;
    // A prompt the API blocked is answered with no candidates and the reason in promptFeedback (as complete() reads it).
    if (isRecord(chunk.promptFeedback) && typeof chunk.promptFeedback.blockReason === 'string') blocked = true;
    const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    if (!isRecord(candidate)) continue;
    const { text, calls: asked } = candidateParts(boundary, candidate, event.data, (index) => callId(calls + index));
    if (text !== '') yield { type: 'text', delta: text };
    for (const call of asked) yield wholeCall(call, calls++);
    if (typeof candidate.finishReason === 'string') finishReason = candidate.finishReason;
  }
  if (finishReason === undefined && blocked) finishReason = 'SAFETY';
  if (finishReason === undefined) throw boundary.malformed('the stream ended before the reply finished (no finishReason)', undefined);
  if (usage !== undefined) yield { type: 'usage', usage };
  yield {
    type: 'finish',
    stopReason: stopReasonOf(finishReason, calls > 0),
    ...(model === undefined ? {} : { model }),
    ...(id === undefined ? {} : { id }),
  };
}
