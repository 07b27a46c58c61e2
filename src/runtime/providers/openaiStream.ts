/**
 * A Chat Completions event stream (`stream: true`, `stream_options.include_usage`) read as the
 * port's stream parts (stream.ts). Each event is one `chat.completion.chunk`: `choices[0].delta`
 * carries text and tool-call fragments keyed by `index` (id and name on a call's first fragment,
 * argument text after), the last choice chunk its `finish_reason`; with include_usage one more chunk
 * with empty `choices` carries the usage; `data: [DONE]` ends the stream. Usage is yielded once,
 * just before the finish part, and only when the server sent it.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { TokenUsage } from '../../events/index.js';
import type { ProviderBoundary } from './boundary.js';
import { isRecord } from './guards.js';
import { parseUsage, signatureOf, stopReasonOf } from './openaiFields.js';
import type { LLMStreamPart } from './stream.js';
import { eventJson, streamError } from './streamEvents.js';

export async function* chatCompletionParts(boundary: ProviderBoundary, events: AsyncIterable<EventSourceMessage>): AsyncGenerator<LLMStreamPart> {
  let ordinal = 0;
  let finishReason: unknown;
  let usage: TokenUsage | undefined;
  let model: string | undefined;
  let id: string | undefined;
  let done = false;
  let refused = false;
  for await (const event of events) {
    ordinal++;
    if (event.data === '[DONE]') {
      done = true;
      break;
    }
    const chunk = eventJson(boundary, event.data, ordinal);
    if (chunk.error !== undefined && chunk.error !== null) throw streamError(boundary, event.data, ordinal);
    if (typeof chunk.model === 'string') model = chunk.model;
    if (typeof chunk.id === 'string') id = chunk.id;
    usage = parseUsage(boundary, chunk.usage, event.data) ?? usage;
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) continue;
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) finishReason = choice.finish_reason;
    if (!isRecord(choice.delta)) continue;
    // A refusal streams as `delta.refusal` text instead of content: it is the answer's text.
    if (typeof choice.delta.refusal === 'string' && choice.delta.refusal !== '') {
      refused = true;
      yield { type: 'text', delta: choice.delta.refusal };
    }
    yield* deltaParts(boundary, choice.delta, event.data, ordinal);
  }
  // A server that closes the body after the finish_reason without `[DONE]` has still finished.
  if (!done && finishReason === undefined) throw boundary.malformed('the stream ended before the reply finished (no finish_reason, no [DONE])', undefined);
  if (usage !== undefined) yield { type: 'usage', usage };
  yield {
    type: 'finish',
    stopReason: stopReasonOf(finishReason, refused),
    ...(model === undefined ? {} : { model }),
    ...(id === undefined ? {} : { id }),
  };
}

function* deltaParts(boundary: ProviderBoundary, delta: Record<string, unknown>, data: string, ordinal: number): Generator<LLMStreamPart> {
  if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', delta: delta.content };
  if (delta.tool_calls === undefined || delta.tool_calls === null) return;
  if (!Array.isArray(delta.tool_calls)) throw boundary.malformed(`event ${ordinal}: tool_calls is not an array`, data);
  for (const fragment of delta.tool_calls as unknown[]) {
    if (!isRecord(fragment) || !Number.isSafeInteger(fragment.index) || (fragment.index as number) < 0) {
      throw boundary.malformed(`event ${ordinal}: a tool call fragment has no index`, data);
    }
    const fn = isRecord(fragment.function) ? fragment.function : {};
    const signature = signatureOf(fragment);
    yield {
      type: 'tool_call',
      index: fragment.index as number,
      argumentsDelta: typeof fn.arguments === 'string' ? fn.arguments : '',
      ...(typeof fragment.id === 'string' ? { id: fragment.id } : {}),
      ...(typeof fn.name === 'string' ? { name: fn.name } : {}),
      ...(signature === undefined ? {} : { signature }),
    };
  }
}
