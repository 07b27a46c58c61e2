/**
 * A Responses API event stream (`stream: true`) read as the port's stream parts (stream.ts). Each
 * event names its type and carries a `sequence_number`; the stream has no `[DONE]`:
 * `response.created` gives the response id and model; `response.output_item.added` opens an output
 * item (a `function_call` item is a tool call's first fragment: its call_id and name, keyed by its
 * output_index); `response.function_call_arguments.delta` carries argument text and
 * `response.output_text.delta` text; `response.completed` (or `response.incomplete`) carries the
 * whole response with its usage and ends the reply. `response.failed` and `error` fail the stream
 * with a typed `stream_error`; every other event (reasoning, content parts, the `.done` events that
 * repeat what the deltas gave) carries nothing the port models.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { ProviderBoundary } from './boundary.js';
import { isRecord } from './guards.js';
import { parseUsage, stopReasonOf } from './responsesFields.js';
import type { LLMStreamPart } from './stream.js';
import { eventJson, streamError } from './streamEvents.js';

export async function* responsesStreamParts(boundary: ProviderBoundary, events: AsyncIterable<EventSourceMessage>): AsyncGenerator<LLMStreamPart> {
  let ordinal = 0;
  let calledTools = false;
  let refused = false;
  for await (const event of events) {
    ordinal++;
    const data = eventJson(boundary, event.data, ordinal);
    const malformed = (why: string) => boundary.malformed(`event ${ordinal} (${String(data.type)}): ${why}`, event.data);
    switch (data.type) {
      case 'response.output_item.added': {
        const item = data.item;
        if (!isRecord(item)) throw malformed('no item');
        if (item.type !== 'function_call') break;
        if (typeof item.call_id !== 'string' || typeof item.name !== 'string') throw malformed('a function_call item without call_id and name');
        calledTools = true;
        const argumentsDelta = typeof item.arguments === 'string' ? item.arguments : '';
        yield { type: 'tool_call', index: outputIndex(data, malformed), id: item.call_id, name: item.name, argumentsDelta };
        break;
      }
      case 'response.function_call_arguments.delta': {
        if (typeof data.delta !== 'string') throw malformed('no delta');
        yield { type: 'tool_call', index: outputIndex(data, malformed), argumentsDelta: data.delta };
        break;
      }
      case 'response.output_text.delta': {
        if (typeof data.delta !== 'string') throw malformed('no delta');
        if (data.delta !== '') yield { type: 'text', delta: data.delta };
        break;
      }
      case 'response.refusal.delta': {
        // A refusal streams as its own deltas: its text is the answer's.
        if (typeof data.delta !== 'string') throw malformed('no delta');
        refused = true;
        if (data.delta !== '') yield { type: 'text', delta: data.delta };
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = data.response;
        if (!isRecord(response)) throw malformed('no response');
        const usage = parseUsage(boundary, response.usage, event.data);
        if (usage !== undefined) yield { type: 'usage', usage };
        yield {
          type: 'finish',
          stopReason: stopReasonOf(response, calledTools, refused),
          ...(typeof response.model === 'string' ? { model: response.model } : {}),
          ...(typeof response.id === 'string' ? { id: response.id } : {}),
        };
        return;
      }
      case 'response.failed': {
        // The error is the response's own; typed from it alone, as an error event would be.
        const error = isRecord(data.response) ? data.response.error : undefined;
        throw streamError(boundary, JSON.stringify({ error }), ordinal);
      }
      case 'error':
        throw streamError(boundary, event.data, ordinal);
    }
  }
  throw boundary.malformed('the stream ended before response.completed', undefined);
}

function outputIndex(data: Record<string, unknown>, malformed: (why: string) => Error): number {
  if (!Number.isSafeInteger(data.output_index) || (data.output_index as number) < 0) throw malformed('no output_index');
  return data.output_index as number;
}
