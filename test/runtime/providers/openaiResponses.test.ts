/**
 * openaiResponses() against a real HTTP server speaking the Responses API byte for byte: the exact
 * request (instructions, input items with a function call round trip, tools), an answer with a
 * reasoning item and two function calls, usage with cached and reasoning tokens, an incomplete
 * answer, and a streamed reply that calls a tool (item added, argument deltas, completed).
 */
import { describe, expect, it } from 'vitest';
import { openaiResponses, type LLMRequest } from '../../../src/runtime/providers/index.js';
import { failureOf, onlyPost, wireServerPerTest } from './perTest.js';
import { assembled, drain } from './streaming.js';
import { responsesEvent, responsesUsage } from './targets.js';
import { sendJson, writeBody } from './wireServer.js';

const serve = wireServerPerTest();

const WEATHER_SCHEMA = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false };

/** Shaped like an o4-mini answer that reasoned, then called two tools. */
const TOOL_CALLS = {
  id: 'resp_68af4030592c81938ec0a5fbab4a3e9f05438e46b5f69a3b',
  object: 'response',
  created_at: 1756315696,
  status: 'completed',
  background: false,
  error: null,
  incomplete_details: null,
  instructions: 'Be terse.',
  max_output_tokens: null,
  model: 'o4-mini-2025-04-16',
  output: [
    { id: 'rs_68af4030baa48193b0b43b4c2a176a1a05438e46b5f69a3b', type: 'reasoning', summary: [] },
    {
      id: 'fc_68af40318e8c8193be6c2e1ed4c7e3c605438e46b5f69a3b',
      type: 'function_call',
      status: 'completed',
      arguments: '{"location":"Paris, France"}',
      call_id: 'call_gmCMc4Lq4WqGNMdTmz4DW9fX',
      name: 'get_weather',
    },
    { id: 'fc_2', type: 'function_call', status: 'completed', arguments: '', call_id: 'call_2', name: 'get_time' },
  ],
  parallel_tool_calls: true,
  previous_response_id: null,
  reasoning: { effort: 'medium', summary: null },
  store: false,
  temperature: 1.0,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [],
  top_p: 1.0,
  truncation: 'disabled',
  usage: responsesUsage({ input: 1302, output: 252, cached: 1152, reasoning: 192 }),
  user: null,
  metadata: {},
};

const ROUND_TRIP: LLMRequest = {
  model: 'o4-mini',
  systemPrompt: 'Be terse.',
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'get_weather', args: { location: 'Paris' } }] },
    { role: 'tool', toolCallId: 'call_1', content: '{"celsius":18}' },
  ],
  tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: WEATHER_SCHEMA }],
  temperature: 0.2,
  maxTokens: 500,
};

describe('openaiResponses', () => {
  it('sends instructions, input items (a function call and its output) and tools to POST /responses', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, TOOL_CALLS));
    await openaiResponses({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' }).complete(ROUND_TRIP);
    const sent = onlyPost(server, '/v1/responses', { authorization: 'Bearer sk-test', 'content-type': 'application/json' });
    expect(sent.json).toEqual({
      model: 'o4-mini',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: 'Let me look.' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"celsius":18}' },
      ],
      store: false,
      instructions: 'Be terse.',
      tools: [{ type: 'function', name: 'get_weather', description: 'Current weather', parameters: WEATHER_SCHEMA, strict: false }],
      temperature: 0.2,
      max_output_tokens: 500,
    });
  });

  it('sends each function tool with strict: false, as Chat Completions treats one without it: the Responses API makes a tool without strict strict when it can, every optional argument then required', async () => {
    // what zod 4 gives for z.object({ city: z.string(), units: z.enum(['c', 'f']).optional() }): units may be left out
    const optionalUnits = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { city: { type: 'string' }, units: { type: 'string', enum: ['c', 'f'] } }, required: ['city'] };
    const server = await serve((_req, res) => sendJson(res, 200, TOOL_CALLS));
    await openaiResponses({ baseURL: server.url }).complete({ model: 'o4-mini', messages: [{ role: 'user', content: 'Weather?' }], tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: optionalUnits }] });
    const sent = onlyPost(server, '/responses', {}).json as { tools: unknown };
    expect(sent.tools).toEqual([{ type: 'function', name: 'get_weather', description: 'Current weather', parameters: optionalUnits, strict: false }]);
  });

  it('reads function calls past a reasoning item, with usage counting cached and reasoning tokens', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, TOOL_CALLS));
    const response = await openaiResponses({ baseURL: server.url }).complete(ROUND_TRIP);
    expect(response).toEqual({
      content: '',
      toolCalls: [
        { id: 'call_gmCMc4Lq4WqGNMdTmz4DW9fX', name: 'get_weather', args: { location: 'Paris, France' } },
        { id: 'call_2', name: 'get_time', args: {} },
      ],
      stopReason: 'tool_use',
      usage: { input: 1302, output: 252, cacheRead: 1152, reasoning: 192 },
      model: 'o4-mini-2025-04-16',
      id: 'resp_68af4030592c81938ec0a5fbab4a3e9f05438e46b5f69a3b',
    });
  });

  it('an incomplete answer (max_output_tokens) stops with max_tokens', async () => {
    const incomplete = { ...TOOL_CALLS, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [TOOL_CALLS.output[0]] };
    const server = await serve((_req, res) => sendJson(res, 200, incomplete));
    const response = await openaiResponses({ baseURL: server.url }).complete(ROUND_TRIP);
    expect({ content: response.content, toolCalls: response.toolCalls, stopReason: response.stopReason }).toEqual({ content: '', toolCalls: [], stopReason: 'max_tokens' });
  });

  it('arguments that are not JSON: the call keeps them as argsText with empty args, and they go back as written', async () => {
    const broken = { ...TOOL_CALLS, output: [{ ...TOOL_CALLS.output[1], arguments: '{"location":' }] };
    const server = await serve((_req, res) => sendJson(res, 200, broken));
    const provider = openaiResponses({ baseURL: server.url });
    const response = await provider.complete(ROUND_TRIP);
    expect(response.toolCalls).toEqual([{ id: 'call_gmCMc4Lq4WqGNMdTmz4DW9fX', name: 'get_weather', args: {}, argsText: '{"location":' }]);
    await provider.complete({ ...ROUND_TRIP, messages: [{ role: 'user', content: 'Weather?' }, { role: 'assistant', content: '', toolCalls: response.toolCalls }] });
    expect((server.requests[1]!.json as { input: unknown[] }).input[1]).toEqual({ type: 'function_call', call_id: 'call_gmCMc4Lq4WqGNMdTmz4DW9fX', name: 'get_weather', arguments: '{"location":' });
  });

  it('streams a tool call: the item added gives id and name, argument deltas the arguments, completed the usage and finish', async () => {
    const response = { ...TOOL_CALLS, output: [TOOL_CALLS.output[0], { ...TOOL_CALLS.output[1] }] };
    const item = TOOL_CALLS.output[1] as Record<string, unknown>;
    const server = await serve((_req, res) =>
      void writeBody(res, [
        responsesEvent('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } }),
        responsesEvent('response.output_item.added', { output_index: 0, item: { ...(TOOL_CALLS.output[0] as object) } }),
        responsesEvent('response.output_item.done', { output_index: 0, item: TOOL_CALLS.output[0] }),
        responsesEvent('response.output_item.added', { output_index: 1, item: { ...item, status: 'in_progress', arguments: '' } }),
        responsesEvent('response.function_call_arguments.delta', { item_id: item.id, output_index: 1, delta: '{"location":' }),
        responsesEvent('response.function_call_arguments.delta', { item_id: item.id, output_index: 1, delta: '"Paris, France"}' }),
        responsesEvent('response.function_call_arguments.done', { item_id: item.id, output_index: 1, arguments: item.arguments }),
        responsesEvent('response.output_item.done', { output_index: 1, item }),
        responsesEvent('response.completed', { response }),
      ]),
    );
    const { parts, error } = await drain(openaiResponses({ baseURL: server.url }).stream!({ ...ROUND_TRIP }));
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'tool_call', index: 1, id: 'call_gmCMc4Lq4WqGNMdTmz4DW9fX', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool_call', index: 1, argumentsDelta: '{"location":' },
      { type: 'tool_call', index: 1, argumentsDelta: '"Paris, France"}' },
      { type: 'usage', usage: { input: 1302, output: 252, cacheRead: 1152, reasoning: 192 } },
      { type: 'finish', stopReason: 'tool_use', model: 'o4-mini-2025-04-16', id: 'resp_68af4030592c81938ec0a5fbab4a3e9f05438e46b5f69a3b' },
    ]);
    expect(assembled('openai', parts).toolCalls).toEqual([{ id: 'call_gmCMc4Lq4WqGNMdTmz4DW9fX', name: 'get_weather', args: { location: 'Paris, France' } }]);
    expect((server.requests[0]!.json as Record<string, unknown>).stream).toBe(true);
  });

  it('a response.failed event: stream_error with the error code, retryable for server_error', async () => {
    const server = await serve((_req, res) =>
      void writeBody(res, [
        responsesEvent('response.created', { response: { ...TOOL_CALLS, status: 'in_progress', output: [], usage: null } }),
        responsesEvent('response.failed', { response: { ...TOOL_CALLS, status: 'failed', output: [], error: { code: 'server_error', message: 'The model failed.' } } }),
      ]),
    );
    const { parts, error } = await drain(openaiResponses({ baseURL: server.url }).stream!(ROUND_TRIP));
    expect(parts).toEqual([]);
    expect({ kind: error?.kind, retryable: error?.retryable, message: error?.message }).toEqual({ kind: 'stream_error', retryable: true, message: 'openai: the server reported an error in event 2 of the stream (code server_error)' });
  });
});

describe('openaiResponses with storeResponses', () => {
  const firstAnswer = { ...TOOL_CALLS, store: true, output: [TOOL_CALLS.output[0], TOOL_CALLS.output[1]] };
  const secondAnswer = {
    ...TOOL_CALLS,
    id: 'resp_second',
    store: true,
    previous_response_id: TOOL_CALLS.id,
    output: [{ type: 'message', id: 'msg_2', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'It is 18°C.', annotations: [] }] }],
  };
  const first: LLMRequest = { model: 'o4-mini', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: ROUND_TRIP.tools };
  const call = { id: 'call_gmCMc4Lq4WqGNMdTmz4DW9fX', name: 'get_weather', args: { location: 'Paris, France' } };
  const second: LLMRequest = {
    ...first,
    messages: [...first.messages, { role: 'assistant', content: '', toolCalls: [call] }, { role: 'tool', toolCallId: call.id, content: '{"celsius":18}' }],
  };

  it('stores answers and continues one: previous_response_id and only the items after it', async () => {
    const server = await serve((_req, res, index) => sendJson(res, 200, index === 0 ? firstAnswer : secondAnswer));
    const provider = openaiResponses({ baseURL: server.url, storeResponses: true });
    const answered = await provider.complete(first);
    expect(answered.previousResponseId).toBeUndefined();
    const continued = await provider.complete(second);
    expect({ content: continued.content, previousResponseId: continued.previousResponseId }).toEqual({ content: 'It is 18°C.', previousResponseId: TOOL_CALLS.id });
    const bodies = server.requests.map((request) => request.json as Record<string, unknown>);
    expect([bodies[0]!.store, bodies[0]!.previous_response_id, bodies[0]!.input]).toEqual([true, undefined, [{ role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] }]]);
    expect([bodies[1]!.store, bodies[1]!.previous_response_id, bodies[1]!.input]).toEqual([
      true,
      TOOL_CALLS.id,
      [{ type: 'function_call_output', call_id: call.id, output: '{"celsius":18}' }],
    ]);
  });

  it('a conversation that was changed matches nothing and goes whole', async () => {
    const server = await serve((_req, res, index) => sendJson(res, 200, index === 0 ? firstAnswer : secondAnswer));
    const provider = openaiResponses({ baseURL: server.url, storeResponses: true });
    await provider.complete(first);
    const edited: LLMRequest = { ...second, messages: [{ role: 'user', content: 'Weather in Paris, please?' }, ...second.messages.slice(1)] };
    const response = await provider.complete(edited);
    expect(response.previousResponseId).toBeUndefined();
    const body = server.requests[1]!.json as Record<string, unknown>;
    expect([body.previous_response_id, (body.input as unknown[]).length]).toEqual([undefined, 3]);
  });

  it('a streamed answer is remembered too, and a continued stream names what it continued in its finish part', async () => {
    const text = (response: Record<string, unknown>, delta: string) => [
      responsesEvent('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta }),
      responsesEvent('response.completed', { response }),
    ];
    const server = await serve((_req, res, index) => void writeBody(res, index === 0 ? text(firstAnswer, 'Checking.') : text(secondAnswer, 'Rome too.')));
    const provider = openaiResponses({ baseURL: server.url, storeResponses: true });
    expect((await drain(provider.stream!(first))).parts.at(-1)).toEqual({ type: 'finish', stopReason: 'end_turn', model: 'o4-mini-2025-04-16', id: TOOL_CALLS.id });
    const followUp: LLMRequest = { ...first, messages: [...first.messages, { role: 'assistant', content: 'Checking.' }, { role: 'user', content: 'And Rome?' }] };
    const { parts } = await drain(provider.stream!(followUp));
    expect(parts.at(-1)).toEqual({ type: 'finish', previousResponseId: TOOL_CALLS.id, stopReason: 'end_turn', model: 'o4-mini-2025-04-16', id: 'resp_second' });
    const body = server.requests[1]!.json as Record<string, unknown>;
    expect([body.previous_response_id, body.input]).toEqual([TOOL_CALLS.id, [{ role: 'user', content: [{ type: 'input_text', text: 'And Rome?' }] }]]);
  });
});
