/**
 * anthropic({ promptCache: true }) against a real HTTP server speaking the Messages API: every request
 * of an agent's tool loop, streamed or not, carries the top-level `cache_control` that turns on the
 * API's automatic prompt caching; what the replies say was written and read comes back as the run's
 * usage, is priced at the cache rates, and is on each chat span. An option that is not a boolean is a
 * ConfigError naming it. (Without the option no request carries it: the exact bodies of
 * anthropic.test.ts and streamAnthropic.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { Agent, anthropic, ConfigError, tool } from '../../../src/index.js';
import { sdkPerFile } from '../../support/sdk.js';
import { wireServerPerTest } from './perTest.js';
import { sse } from './streaming.js';
import { sendJson, writeBody } from './wireServer.js';

const serve = wireServerPerTest();
const sdk = sdkPerFile();

const MODEL = 'claude-sonnet-4-5';
const CACHED = { type: 'ephemeral' };

/** The first call writes the prompt to the cache; the second reads it back and writes its own new end. */
const USAGES = [
  { input_tokens: 20, cache_creation_input_tokens: 1500, cache_read_input_tokens: 0, output_tokens: 30 },
  { input_tokens: 25, cache_creation_input_tokens: 60, cache_read_input_tokens: 1500, output_tokens: 10 },
];

const TOOL_USE = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: MODEL,
  content: [{ type: 'tool_use', id: 'toolu_01', name: 'lookup', input: { order: 'A-17' } }],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: USAGES[0],
};
const ANSWER = {
  id: 'msg_02',
  type: 'message',
  role: 'assistant',
  model: MODEL,
  content: [{ type: 'text', text: 'Order A-17 ships Monday.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: USAGES[1],
};

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up',
  inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] } as const,
  execute: async ({ order }) => ({ order, ships: 'Monday' }),
});

function desk(url: string) {
  return Agent.create({ provider: anthropic({ baseURL: url, apiKey: 'sk-ant-test', promptCache: true }), model: MODEL, id: 'desk' })
    .system('You are an order desk.')
    .tool(lookup)
    .build();
}

/** The cache counts of each chat span, in call order. */
function cacheAttributes() {
  return sdk()
    .spans()
    .filter((span) => span.name === `chat ${MODEL}`)
    .sort((a, b) => (a.attributes['footprint.iteration'] as number) - (b.attributes['footprint.iteration'] as number))
    .map((span) => ({
      read: span.attributes['gen_ai.usage.cache_read.input_tokens'],
      write: span.attributes['gen_ai.usage.cache_write.input_tokens'],
      input: span.attributes['gen_ai.usage.input_tokens'],
    }));
}

describe('anthropic promptCache', () => {
  it('every request of a tool loop asks for automatic caching; the cache counts are the usage, priced at the cache rates, on each chat span', async () => {
    const server = await serve((_req, res, index) => sendJson(res, 200, [TOOL_USE, ANSWER][index]));
    const result = await desk(server.url).run('When does A-17 ship?');

    expect(result.text).toBe('Order A-17 ships Monday.');
    expect(server.requests.map((r) => (r.json as { cache_control?: unknown }).cache_control)).toEqual([CACHED, CACHED]);
    expect(server.requests[1]!.json).toEqual({
      model: MODEL,
      max_tokens: 1024,
      system: 'You are an order desk.',
      messages: [
        { role: 'user', content: 'When does A-17 ship?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'lookup', input: { order: 'A-17' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"order":"A-17","ships":"Monday"}' }] },
      ],
      tools: [{ name: 'lookup', description: 'Looks an order up', input_schema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] } }],
      cache_control: CACHED,
    });
    // Input counts the cached tokens too (anthropicUsage.ts): 20 + 1500 + 0, then 25 + 60 + 1500.
    expect(result.usage).toEqual({ input: 3105, output: 40, cacheRead: 1500, cacheWrite: 1560 });
    // claude-sonnet-4-5 per million tokens: $3 input, $3.75 cache write, $0.30 cache read, $15 output.
    // Call 1: 20 x 3 + 1500 x 3.75 + 30 x 15 = 6135; call 2: 25 x 3 + 60 x 3.75 + 1500 x 0.3 + 10 x 15 = 900.
    expect(result.cost.usd).toBeCloseTo(0.007035, 9);
    expect(cacheAttributes()).toEqual([
      { read: 0, write: 1500, input: 1520 },
      { read: 1500, write: 60, input: 1585 },
    ]);
  });

  it('a streamed call asks for it too', async () => {
    const event = (data: { type: string } & Record<string, unknown>) => sse(data, data.type);
    const server = await serve(
      (_req, res) =>
        void writeBody(res, [
          event({ type: 'message_start', message: { ...ANSWER, content: [], stop_reason: null, usage: { ...USAGES[1], output_tokens: 1 } } }),
          event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
          event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Order A-17 ships Monday.' } }),
          event({ type: 'content_block_stop', index: 0 }),
          event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } }),
          event({ type: 'message_stop' }),
        ]),
    );
    const stream = desk(server.url).stream('When does A-17 ship?');
    for await (const _part of stream) {
      // read to the end
    }
    const result = await stream.result;

    expect(result.text).toBe('Order A-17 ships Monday.');
    expect(server.requests.map((r) => r.json)).toEqual([
      {
        stream: true,
        model: MODEL,
        max_tokens: 1024,
        system: 'You are an order desk.',
        messages: [{ role: 'user', content: 'When does A-17 ship?' }],
        tools: [{ name: 'lookup', description: 'Looks an order up', input_schema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] } }],
        cache_control: CACHED,
      },
    ]);
    expect(result.usage).toEqual({ input: 1585, output: 10, cacheRead: 1500, cacheWrite: 60 });
  });

  it('a promptCache that is not true or false is a ConfigError naming it', () => {
    const made = () => anthropic({ promptCache: 'yes' as unknown as boolean });
    expect(made).toThrow(new ConfigError('anthropic: promptCache must be true or false (got string)', { field: 'promptCache' }));
  });
});
