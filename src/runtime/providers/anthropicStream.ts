/**
 * A Messages event stream (`stream: true`) read as the port's stream parts (stream.ts):
 * `message_start` gives the response id, model and input usage; `content_block_start` opens a text
 * block or a tool_use block (its id and name: the tool call's first fragment, keyed by the block's
 * index); `content_block_delta` carries `text_delta` text or `input_json_delta` argument text;
 * `message_delta` the stop reason and output usage; `message_stop` ends the reply. `ping` and event
 * types the port does not model (thinking deltas, ...) are skipped; an `error` event fails the
 * stream with a typed `stream_error`. The two usage pieces are merged into one `usage` part.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { parseUsage } from './anthropicUsage.js';
import type { ProviderBoundary } from './boundary.js';
import { isRecord } from './guards.js';
import type { LLMStreamPart } from './stream.js';
import { eventJson, streamError } from './streamEvents.js';

export async function* messagesStreamParts(boundary: ProviderBoundary, events: AsyncIterable<EventSourceMessage>): AsyncGenerator<LLMStreamPart> {
  let ordinal = 0;
  let usage: Record<string, unknown> = {};
  let stopReason: unknown;
  let model: unknown;
  let id: unknown;
  for await (const event of events) {
    ordinal++;
    const data = eventJson(boundary, event.data, ordinal);
    const malformed = (why: string) => boundary.malformed(`event ${ordinal} (${String(data.type)}): ${why}`, event.data);
    switch (data.type) {
      case 'message_start': {
        if (!isRecord(data.message)) throw malformed('no message');
        ({ id, model } = data.message);
        usage = merged(usage, data.message.usage);
        break;
      }
      case 'content_block_start': {
        const block = data.content_block;
        if (!isRecord(block)) throw malformed('no content_block');
        if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') yield { type: 'text', delta: block.text };
        if (block.type === 'tool_use') {
          if (typeof block.id !== 'string' || typeof block.name !== 'string') throw malformed('a tool_use block without id and name');
          yield { type: 'tool_call', index: indexOf(data, malformed), id: block.id, name: block.name, argumentsDelta: '' };
        }
        break;
      }
      case 'content_block_delta': {
        const delta = data.delta;
        if (!isRecord(delta)) throw malformed('no delta');
        if (delta.type === 'text_delta') {
          if (typeof delta.text !== 'string') throw malformed('a text_delta without text');
          if (delta.text !== '') yield { type: 'text', delta: delta.text };
        } else if (delta.type === 'input_json_delta') {
          if (typeof delta.partial_json !== 'string') throw malformed('an input_json_delta without partial_json');
          yield { type: 'tool_call', index: indexOf(data, malformed), argumentsDelta: delta.partial_json };
        }
        break;
      }
      case 'message_delta': {
        if (isRecord(data.delta) && typeof data.delta.stop_reason === 'string') stopReason = data.delta.stop_reason;
        usage = merged(usage, data.usage);
        break;
      }
      case 'message_stop': {
        const counts = parseUsage(boundary, usage, event.data);
        if (counts !== undefined) yield { type: 'usage', usage: counts };
        yield {
          type: 'finish',
          stopReason: typeof stopReason === 'string' ? stopReason : 'unknown',
          ...(typeof model === 'string' ? { model } : {}),
          ...(typeof id === 'string' ? { id } : {}),
        };
        return;
      }
      case 'error':
        throw streamError(boundary, event.data, ordinal);
      // 'ping', 'content_block_stop' and event types added later carry nothing the port models.
    }
  }
  throw boundary.malformed('the stream ended before message_stop', undefined);
}

/** The later piece's counts over the earlier ones; a null count (not reported there) changes nothing. */
function merged(usage: Record<string, unknown>, piece: unknown): Record<string, unknown> {
  if (!isRecord(piece)) return usage;
  return { ...usage, ...Object.fromEntries(Object.entries(piece).filter(([, value]) => value !== null && value !== undefined)) };
}

function indexOf(data: Record<string, unknown>, malformed: (why: string) => Error): number {
  if (!Number.isSafeInteger(data.index) || (data.index as number) < 0) throw malformed('no block index');
  return data.index as number;
}
