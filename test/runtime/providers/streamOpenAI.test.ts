/**
 * openaiCompatible().stream() against a real HTTP server writing Chat Completions event streams byte
 * for byte: the exact request (stream flags), text split mid-character across network reads, SSE
 * comments and keep-alive blank lines, the usage chunk (and a server that sends none), tool-call
 * fragments interleaved by index, `[DONE]`, an error chunk, and an answer that is not a stream.
 */
import { describe, expect, it } from 'vitest';
import { openaiCompatible, type LLMRequest, type LLMStreamPart } from '../../../src/runtime/providers/index.js';
import { openaiUsage } from './openaiWire.js';
import { onlyPost, wireServerPerTest } from './perTest.js';
import { assembled, drain, readsRecorded, sleep, sse, type Drained } from './streaming.js';
import { sendJson, writeBody } from './wireServer.js';

const serve = wireServerPerTest();

const ID = 'chatcmpl-C3xQ2b1Yv9GqCwS7sTq0R4mJ5kZ8e';
const MODEL = 'gpt-4o-mini-2024-07-18';

/** The fields every chunk of one answer repeats. */
const CHUNK_FIELDS = {
  id: ID,
  object: 'chat.completion.chunk',
  created: 1741569952,
  model: MODEL,
  service_tier: 'default',
  system_fingerprint: 'fp_06737a9306',
};

/** One `chat.completion.chunk` as OpenAI writes it with include_usage (usage null until the last). */
function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return sse({ ...CHUNK_FIELDS, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null });
}

const USAGE_CHUNK = sse({ ...CHUNK_FIELDS, choices: [], usage: openaiUsage({ prompt: 19, completion: 6 }) });

const DONE = 'data: [DONE]\n\n';

const REQUEST: LLMRequest = {
  model: 'gpt-4o-mini',
  systemPrompt: 'You are terse.',
  messages: [{ role: 'user', content: 'Greet Tokyo.' }],
  temperature: 0.2,
  maxTokens: 64,
};

/** What a server writing `pieces` (as writeBody takes them) streams to openaiCompatible(), and how the stream ends. */
async function streamOf(pieces: Parameters<typeof writeBody>[1]): Promise<Drained> {
  const server = await serve((_req, res) => void writeBody(res, pieces));
  return drain(openaiCompatible({ baseURL: server.url }).stream!(REQUEST));
}

/** The parts of an answer `ok` that finished normally. */
const OK_PARTS: LLMStreamPart[] = [
  { type: 'text', delta: 'ok' },
  { type: 'finish', stopReason: 'end_turn', model: MODEL, id: ID },
];

/** Resolves once the recorded reads hold at least `bytes` bytes of the body. */
async function clientHasRead(reads: Uint8Array[], bytes: number): Promise<void> {
  while (reads.reduce((sum, read) => sum + read.byteLength, 0) < bytes) await sleep(2);
}

describe('openaiCompatible stream()', () => {
  it('text split mid-character across reads, comments and keep-alive lines, usage, [DONE]: the exact parts, request and reply', async () => {
    const body = Buffer.from(
      [
        ': keep-alive\n\n',
        chunk({ role: 'assistant', content: '', refusal: null }),
        chunk({ content: 'Grüße, 東' }),
        '\n\n',
        ': OPENROUTER PROCESSING\n\n',
        chunk({ content: '京 🌸' }),
        chunk({}, 'stop'),
        USAGE_CHUNK,
        DONE,
      ].join(''),
      'utf8',
    );
    // Cut inside 東 (3 bytes) and inside 🌸 (4 bytes), each piece read before the next is written.
    const cuts = [body.indexOf('東') + 1, body.indexOf('🌸') + 2];
    const { fetch, reads } = readsRecorded();
    const server = await serve((_req, res) =>
      void writeBody(res, [
        body.subarray(0, cuts[0]),
        { until: () => clientHasRead(reads, cuts[0]!) },
        body.subarray(cuts[0], cuts[1]),
        { until: () => clientHasRead(reads, cuts[1]!) },
        body.subarray(cuts[1]),
      ]),
    );
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', fetch });

    const { parts, error } = await drain(provider.stream!(REQUEST));

    expect(error).toBeUndefined();
    expect(parts).toEqual<LLMStreamPart[]>([
      { type: 'text', delta: 'Grüße, 東' },
      { type: 'text', delta: '京 🌸' },
      { type: 'usage', usage: { input: 19, output: 6, cacheRead: 0, reasoning: 0 } },
      { type: 'finish', stopReason: 'end_turn', model: MODEL, id: ID },
    ]);
    expect(assembled('openai', parts)).toEqual({
      content: 'Grüße, 東京 🌸',
      toolCalls: [],
      usage: { input: 19, output: 6, cacheRead: 0, reasoning: 0 },
      stopReason: 'end_turn',
      model: MODEL,
      id: ID,
    });
    // The cuts really fell between two network reads.
    const boundaries = reads.map((_, i) => reads.slice(0, i + 1).reduce((sum, read) => sum + read.byteLength, 0));
    expect(boundaries).toEqual(expect.arrayContaining(cuts));
    expect(Buffer.concat(reads)).toEqual(body);

    const sent = onlyPost(server, '/v1/chat/completions', { authorization: 'Bearer sk-test', 'content-type': 'application/json' });
    expect(sent.json).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Greet Tokyo.' },
      ],
      temperature: 0.2,
      max_tokens: 64,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('a server that sends no usage chunk: no usage part, and the reply has no usage (never zeros)', async () => {
    // Shaped like Ollama's /v1 stream, which ignores stream_options.
    const ollama = (delta: Record<string, unknown>, finish: string | null = null) =>
      sse({
        id: 'chatcmpl-457',
        object: 'chat.completion.chunk',
        created: 1736938234,
        model: 'llama3.2',
        system_fingerprint: 'fp_ollama',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    const { parts, error } = await streamOf([
      ollama({ role: 'assistant', content: 'It is ' }),
      ollama({ role: 'assistant', content: '18°C.' }),
      ollama({ role: 'assistant', content: '' }, 'length'),
      DONE,
    ]);
    expect(error).toBeUndefined();
    expect(parts).toEqual<LLMStreamPart[]>([
      { type: 'text', delta: 'It is ' },
      { type: 'text', delta: '18°C.' },
      { type: 'finish', stopReason: 'max_tokens', model: 'llama3.2', id: 'chatcmpl-457' },
    ]);
    expect(assembled('openai', parts)).toEqual({ content: 'It is 18°C.', toolCalls: [], stopReason: 'max_tokens', model: 'llama3.2', id: 'chatcmpl-457' });
  });

  it('tool-call fragments of two calls interleaved, index 1 first: each fragment a part, the calls assembled by index', async () => {
    const call = (fragment: Record<string, unknown>) => chunk({ tool_calls: [fragment] });
    const { parts, error } = await streamOf([
      chunk({ role: 'assistant', content: null, refusal: null }),
      call({ index: 1, id: 'call_ABSg8ccnVFEDmmYWknYrB4ev', type: 'function', function: { name: 'get_time', arguments: '' } }),
      call({ index: 0, id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', type: 'function', function: { name: 'get_weather', arguments: '' } }),
      call({ index: 0, function: { arguments: '{"location":' } }),
      call({ index: 1, function: { arguments: '{}' } }),
      { pauseMs: 5 },
      call({ index: 0, function: { arguments: '"Paris, France"}' } }),
      chunk({}, 'tool_calls'),
      USAGE_CHUNK,
      DONE,
    ]);
    expect(error).toBeUndefined();
    expect(parts).toEqual<LLMStreamPart[]>([
      { type: 'tool_call', index: 1, id: 'call_ABSg8ccnVFEDmmYWknYrB4ev', name: 'get_time', argumentsDelta: '' },
      { type: 'tool_call', index: 0, id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool_call', index: 0, argumentsDelta: '{"location":' },
      { type: 'tool_call', index: 1, argumentsDelta: '{}' },
      { type: 'tool_call', index: 0, argumentsDelta: '"Paris, France"}' },
      { type: 'usage', usage: { input: 19, output: 6, cacheRead: 0, reasoning: 0 } },
      { type: 'finish', stopReason: 'tool_use', model: MODEL, id: ID },
    ]);
    expect(assembled('openai', parts)).toEqual({
      content: '',
      toolCalls: [
        { id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather', args: { location: 'Paris, France' } },
        { id: 'call_ABSg8ccnVFEDmmYWknYrB4ev', name: 'get_time', args: {} },
      ],
      usage: { input: 19, output: 6, cacheRead: 0, reasoning: 0 },
      stopReason: 'tool_use',
      model: MODEL,
      id: ID,
    });
  });

  it('a server that closes the body after the finish chunk without [DONE] has still finished', async () => {
    const { parts, error } = await streamOf([chunk({ content: 'ok' }), chunk({}, 'stop')]);
    expect(error).toBeUndefined();
    expect(parts).toEqual(OK_PARTS);
  });

  it("an error chunk mid-stream (vLLM, OpenAI): the parts before it, then a typed stream_error naming its type; the server's message only under content capture", async () => {
    const errorChunk = sse({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
    const server = await serve((_req, res) => void writeBody(res, [chunk({ content: 'Hel' }), errorChunk]));
    const provider = openaiCompatible({ baseURL: server.url, maxRetries: 2, retryBaseMs: 1 });

    const { parts, error } = await drain(provider.stream!(REQUEST));
    expect(parts).toEqual<LLMStreamPart[]>([{ type: 'text', delta: 'Hel' }]);
    expect({ kind: error?.kind, retryable: error?.retryable, message: error?.message, raw: error?.raw }).toEqual({
      kind: 'stream_error',
      retryable: true,
      message: 'openai: the server reported an error in event 2 of the stream (type server_error)',
      raw: undefined,
    });
    expect(error?.errorType).toBe('stream_error');
    expect(server.requests).toHaveLength(1);

    const capturing = openaiCompatible({ baseURL: server.url, maxRetries: 2, retryBaseMs: 1, captureContent: true });
    const captured = (await drain(capturing.stream!(REQUEST))).error;
    expect(captured?.message).toBe(
      'openai: the server reported an error in event 2 of the stream (type server_error): The server had an error while processing your request.',
    );
    expect(captured?.raw).toBe(errorChunk.slice('data: '.length, -2));
  });

  it('a 200 answer that is JSON, not an event stream: malformed_response naming the content type, not retried', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: ID, choices: [] }));
    const { parts, error } = await drain(openaiCompatible({ baseURL: server.url, retryBaseMs: 1 }).stream!(REQUEST));
    expect(parts).toEqual([]);
    expect({ kind: error?.kind, retryable: error?.retryable, message: error?.message }).toEqual({
      kind: 'malformed_response',
      retryable: false,
      message: 'openai: malformed response: HTTP 200 answer is not an event stream (content-type application/json)',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('CRLF line ends, as some proxies write them, parse the same', async () => {
    const body = [chunk({ content: 'ok' }), chunk({}, 'stop'), DONE].join('').replaceAll('\n', '\r\n');
    const { parts, error } = await streamOf([body]);
    expect(error).toBeUndefined();
    expect(parts).toEqual(OK_PARTS);
  });

  it('a tool-call fragment without its index: malformed_response naming the event, after the parts before it', async () => {
    const { parts, error } = await streamOf([
      chunk({ content: 'Let me check.' }),
      chunk({ tool_calls: [{ id: 'call_1', function: { name: 'get_time', arguments: '' } }] }),
      DONE,
    ]);
    expect(parts).toEqual<LLMStreamPart[]>([{ type: 'text', delta: 'Let me check.' }]);
    expect({ kind: error?.kind, message: error?.message }).toEqual({
      kind: 'malformed_response',
      message: 'openai: malformed response: event 2: a tool call fragment has no index',
    });
  });
});
