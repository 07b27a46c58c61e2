/**
 * anthropic().stream() against a real HTTP server writing Messages event streams byte for byte: the
 * exact request (stream flag, version and key headers), a thinking block skipped, text and
 * tool_use blocks with their deltas, ping, the two usage pieces merged (cache counts folded into
 * input as complete() folds them), and the mid-stream `error` event as a typed stream_error.
 */
import { describe, expect, it } from 'vitest';
import { anthropic, type LLMRequest, type LLMStreamPart } from '../../../src/runtime/providers/index.js';
import { onlyPost, wireServerPerTest } from './perTest.js';
import { assembled, drain, sse } from './streaming.js';
import { writeBody } from './wireServer.js';

const serve = wireServerPerTest();

const ID = 'msg_014p7gG3wDgGV9EUtLvnow3U';
const MODEL = 'claude-sonnet-4-20250514';

/** A Messages event: the `event:` line names the same type as the data's `type`. */
function event(data: { type: string } & Record<string, unknown>): string {
  return sse(data, data.type);
}

function messageStart(usage: Record<string, unknown>): string {
  return event({
    type: 'message_start',
    message: { id: ID, type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage },
  });
}

const delta = (index: number, body: Record<string, unknown>) => event({ type: 'content_block_delta', index, delta: body });

const REQUEST: LLMRequest = {
  model: 'claude-sonnet-4-20250514',
  systemPrompt: 'You are a weather desk.',
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
  tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: { type: 'object', properties: { location: { type: 'string' } } } }],
};

describe('anthropic stream()', () => {
  it('thinking skipped, text and a tool_use block with their deltas, ping, usage merged: the exact parts, request and reply', async () => {
    const server = await serve((_req, res) =>
      void writeBody(res, [
        messageStart({ input_tokens: 472, cache_creation_input_tokens: 312, cache_read_input_tokens: 2048, output_tokens: 2, service_tier: 'standard' }),
        event({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
        delta(0, { type: 'thinking_delta', thinking: 'The user wants the weather.' }),
        delta(0, { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' }),
        event({ type: 'content_block_stop', index: 0 }),
        event({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
        sse({ type: 'ping' }, 'ping'),
        delta(1, { type: 'text_delta', text: "I'll look up " }),
        delta(1, { type: 'text_delta', text: 'the weather in Paris.' }),
        event({ type: 'content_block_stop', index: 1 }),
        event({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {} } }),
        delta(2, { type: 'input_json_delta', partial_json: '' }),
        { pauseMs: 5 },
        delta(2, { type: 'input_json_delta', partial_json: '{"location":' }),
        delta(2, { type: 'input_json_delta', partial_json: ' "Paris, France"}' }),
        event({ type: 'content_block_stop', index: 2 }),
        event({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 89 } }),
        event({ type: 'message_stop' }),
      ]),
    );
    const provider = anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' });

    const { parts, error } = await drain(provider.stream!(REQUEST));

    expect(error).toBeUndefined();
    const usage = { input: 472 + 312 + 2048, output: 89, cacheRead: 2048, cacheWrite: 312 };
    expect(parts).toEqual<LLMStreamPart[]>([
      { type: 'text', delta: "I'll look up " },
      { type: 'text', delta: 'the weather in Paris.' },
      { type: 'tool_call', index: 2, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool_call', index: 2, argumentsDelta: '' },
      { type: 'tool_call', index: 2, argumentsDelta: '{"location":' },
      { type: 'tool_call', index: 2, argumentsDelta: ' "Paris, France"}' },
      { type: 'usage', usage },
      { type: 'finish', stopReason: 'tool_use', model: MODEL, id: ID },
    ]);
    expect(assembled('anthropic', parts)).toEqual({
      content: "I'll look up the weather in Paris.",
      toolCalls: [{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', args: { location: 'Paris, France' } }],
      usage,
      stopReason: 'tool_use',
      model: MODEL,
      id: ID,
    });

    const sent = onlyPost(server, '/v1/messages', { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(sent.json).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1024,
      system: 'You are a weather desk.',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ name: 'get_weather', description: 'Current weather', input_schema: { type: 'object', properties: { location: { type: 'string' } } } }],
      stream: true,
    });
  });

  it('a later usage piece that reports a count as null leaves the earlier count', async () => {
    const server = await serve((_req, res) =>
      void writeBody(res, [
        messageStart({ input_tokens: 25, output_tokens: 1 }),
        event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hi' } }),
        event({ type: 'content_block_stop', index: 0 }),
        event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { input_tokens: null, output_tokens: 12 } }),
        event({ type: 'message_stop' }),
      ]),
    );
    const { parts, error } = await drain(anthropic({ baseURL: server.url }).stream!(REQUEST));
    expect(error).toBeUndefined();
    expect(parts).toEqual<LLMStreamPart[]>([
      { type: 'text', delta: 'Hi' },
      { type: 'usage', usage: { input: 25, output: 12 } },
      { type: 'finish', stopReason: 'end_turn', model: MODEL, id: ID },
    ]);
  });

  it("the error event mid-stream (overloaded): the parts before it, then a typed, retryable stream_error, never retried; the server's message only under content capture", async () => {
    const errorEvent = sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error');
    const server = await serve((_req, res) =>
      void writeBody(res, [
        messageStart({ input_tokens: 25, output_tokens: 1 }),
        event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        delta(0, { type: 'text_delta', text: 'Paris is' }),
        { pauseMs: 5 },
        errorEvent,
      ]),
    );
    const provider = anthropic({ baseURL: server.url, maxRetries: 2, retryBaseMs: 1 });

    const { parts, error } = await drain(provider.stream!(REQUEST));
    expect(parts).toEqual<LLMStreamPart[]>([{ type: 'text', delta: 'Paris is' }]);
    expect({ kind: error?.kind, retryable: error?.retryable, status: error?.status, message: error?.message, raw: error?.raw }).toEqual({
      kind: 'stream_error',
      retryable: true,
      status: undefined,
      message: 'anthropic: the server reported an error in event 4 of the stream (type overloaded_error)',
      raw: undefined,
    });
    expect(server.requests).toHaveLength(1);

    const capturing = anthropic({ baseURL: server.url, maxRetries: 2, retryBaseMs: 1, captureContent: true });
    const captured = (await drain(capturing.stream!(REQUEST))).error;
    expect(captured?.message).toBe('anthropic: the server reported an error in event 4 of the stream (type overloaded_error): Overloaded');
    expect(captured?.raw).toBe(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
  });

  it('an invalid_request_error event is not retryable', async () => {
    const server = await serve((_req, res) =>
      void writeBody(res, [sse({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } }, 'error')]),
    );
    const { parts, error } = await drain(anthropic({ baseURL: server.url }).stream!(REQUEST));
    expect(parts).toEqual([]);
    expect({ kind: error?.kind, retryable: error?.retryable }).toEqual({ kind: 'stream_error', retryable: false });
  });
});
