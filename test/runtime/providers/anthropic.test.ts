/**
 * anthropic() against a real HTTP server speaking the Messages API: the exact request it sends
 * (path, version and key headers, system, content blocks for a tool round trip, input_schema) and how
 * it reads recorded-shape message objects, cache token counts included.
 */
import { describe, expect, it } from 'vitest';
import { anthropic, type LLMRequest } from '../../../src/runtime/providers/index.js';
import { captureContent } from './capture.js';
import { failureOf, onlyPost, wireServerPerTest } from './perTest.js';
import { sendJson } from './wireServer.js';

/** Shaped like a real claude-sonnet-4 answer: a text block, then a tool_use block, with cache usage. */
const TOOL_USE_MESSAGE = {
  id: 'msg_01Aq9w938a90dw8q4kLcF6mn',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-20250514',
  content: [
    { type: 'text', text: "I'll look up the current weather in Paris." },
    {
      type: 'tool_use',
      id: 'toolu_01A09q90qw90lq917835lq9',
      name: 'get_weather',
      input: { location: 'Paris, France', unit: 'celsius' },
    },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: {
    input_tokens: 472,
    cache_creation_input_tokens: 312,
    cache_read_input_tokens: 2048,
    output_tokens: 89,
    service_tier: 'standard',
  },
};

/** A plain end_turn answer without prompt caching (no cache fields in usage). */
const TEXT_MESSAGE = {
  id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
  type: 'message',
  role: 'assistant',
  model: 'claude-3-5-haiku-20241022',
  content: [
    { type: 'thinking', thinking: 'The user wants a summary.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
    { type: 'text', text: 'Paris: 18°C. ' },
    { type: 'text', text: 'Tokyo: 24°C.' },
  ],
  stop_reason: 'max_tokens',
  stop_sequence: null,
  usage: { input_tokens: 25, output_tokens: 12 },
};

const WEATHER_SCHEMA = {
  type: 'object',
  properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['location'],
};

const serve = wireServerPerTest();

describe('anthropic', () => {
  it('sends the exact Messages request and reads text + tool_use blocks with cache usage', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, TOOL_USE_MESSAGE));
    const provider = anthropic({ apiKey: 'sk-ant-test', baseURL: server.url });
    const request: LLMRequest = {
      model: 'claude-sonnet-4-20250514',
      systemPrompt: 'You are a weather assistant.',
      messages: [
        { role: 'user', content: 'Weather in Paris and Tokyo?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          toolCalls: [
            { id: 'toolu_1', name: 'get_weather', args: { location: 'Paris, France' } },
            { id: 'toolu_2', name: 'get_weather', args: { location: 'Tokyo, Japan' } },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', content: '{"temp":18}' },
        { role: 'tool', toolCallId: 'toolu_2', content: '{"temp":24}' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_3', name: 'get_weather', args: { location: 'Oslo' } }] },
        { role: 'tool', toolCallId: 'toolu_3', content: '{"temp":3}' },
        { role: 'assistant', content: 'Paris 18°C, Tokyo 24°C, Oslo 3°C.' },
        { role: 'user', content: 'Thanks. Paris again?' },
      ],
      tools: [{ name: 'get_weather', description: 'Current weather for a city', inputSchema: WEATHER_SCHEMA }],
      temperature: 0,
    };

    const response = await provider.complete(request);

    expect(provider.name).toBe('anthropic');
    const sent = onlyPost(server, '/v1/messages', {
      'x-api-key': 'sk-ant-test',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      authorization: undefined,
    });
    expect(sent.json).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1024,
      system: 'You are a weather assistant.',
      messages: [
        { role: 'user', content: 'Weather in Paris and Tokyo?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris, France' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { location: 'Tokyo, Japan' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp":18}' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"temp":24}' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'get_weather', input: { location: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: '{"temp":3}' }] },
        { role: 'assistant', content: 'Paris 18°C, Tokyo 24°C, Oslo 3°C.' },
        { role: 'user', content: 'Thanks. Paris again?' },
      ],
      tools: [{ name: 'get_weather', description: 'Current weather for a city', input_schema: WEATHER_SCHEMA }],
      temperature: 0,
    });

    expect(response).toEqual({
      content: "I'll look up the current weather in Paris.",
      toolCalls: [{ id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', args: { location: 'Paris, France', unit: 'celsius' } }],
      usage: { input: 472 + 2048 + 312, output: 89, cacheRead: 2048, cacheWrite: 312 },
      stopReason: 'tool_use',
      model: 'claude-sonnet-4-20250514',
      id: 'msg_01Aq9w938a90dw8q4kLcF6mn',
    });
  });

  it('lets the request set max_tokens, omits unset fields, concatenates text blocks, skips thinking', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, TEXT_MESSAGE));
    const provider = anthropic({ baseURL: `${server.url}/`, maxTokens: 4096 });

    const response = await provider.complete({ model: 'claude-3-5-haiku-latest', messages: [{ role: 'user', content: 'Summary?' }], maxTokens: 64 });

    const sent = onlyPost(server, '/v1/messages', { 'x-api-key': undefined });
    expect(sent.json).toEqual({ model: 'claude-3-5-haiku-latest', max_tokens: 64, messages: [{ role: 'user', content: 'Summary?' }] });
    expect(response).toEqual({
      content: 'Paris: 18°C. Tokyo: 24°C.',
      toolCalls: [],
      usage: { input: 25, output: 12 },
      stopReason: 'max_tokens',
      model: 'claude-3-5-haiku-20241022',
      id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
    });
  });

  it('uses the maxTokens option when the request sets none', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, TEXT_MESSAGE));
    await anthropic({ baseURL: server.url, maxTokens: 4096 }).complete({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect((server.requests[0].json as { max_tokens: number }).max_tokens).toBe(4096);
  });

  it('passes stop_sequence through as the stop reason', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { ...TEXT_MESSAGE, stop_reason: 'stop_sequence', stop_sequence: '###' }));
    const response = await anthropic({ baseURL: server.url }).complete({ model: 'm', messages: [] });
    expect(response.stopReason).toBe('stop_sequence');
  });

  it('reports a response without a usage block (or without both counts) as no usage, not zeros', async () => {
    const { usage: _usage, ...withoutUsage } = TEXT_MESSAGE;
    const bodies = [withoutUsage, { ...TEXT_MESSAGE, usage: { output_tokens: 12 } }];
    const server = await serve((_req, res, index) => sendJson(res, 200, bodies[index]));
    for (let call = 0; call < bodies.length; call++) {
      const response = await anthropic({ baseURL: server.url }).complete({ model: 'm', messages: [] });
      expect(response.content).toBe('Paris: 18°C. Tokyo: 24°C.');
      expect('usage' in response).toBe(false);
    }
  });

  it('treats a 200 without a content array as malformed_response carrying the body (under content capture)', async () => {
    captureContent();
    const body = { id: 'msg_1', type: 'message', role: 'assistant', stop_reason: 'end_turn' };
    const server = await serve((_req, res) => sendJson(res, 200, body));
    const error = await failureOf(anthropic({ baseURL: server.url }).complete({ model: 'm', messages: [] }));
    expect(error.kind).toBe('malformed_response');
    expect(error.retryable).toBe(false);
    expect(JSON.parse(error.raw ?? '')).toEqual(body);
    expect(server.requests).toHaveLength(1);
  });

  it('treats a tool_use block whose input is not an object as malformed_response', async () => {
    const body = { ...TOOL_USE_MESSAGE, content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: '{"location":"Paris"}' }] };
    const server = await serve((_req, res) => sendJson(res, 200, body));
    const error = await failureOf(anthropic({ baseURL: server.url }).complete({ model: 'm', messages: [] }));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toContain('content[0]');
  });
});
