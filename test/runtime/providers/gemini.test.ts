/**
 * gemini() against a real HTTP server speaking the Gemini API byte for byte: the exact request
 * (the model in the path, x-goog-api-key, systemInstruction, contents with a functionCall /
 * functionResponse round trip, functionDeclarations), an answer with a thought summary and a
 * function call, usageMetadata with cached and thinking tokens, a blocked prompt, and a streamed
 * reply whose text arrives in chunks and whose call arrives whole.
 */
import { describe, expect, it } from 'vitest';
import { gemini, type LLMRequest } from '../../../src/runtime/providers/index.js';
import { failureOf, onlyPost, wireServerPerTest } from './perTest.js';
import { drain, sse } from './streaming.js';
import { geminiChunk, geminiUsage } from './targets.js';
import { sendJson, writeBody } from './wireServer.js';

const serve = wireServerPerTest();

const WEATHER_SCHEMA = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };

const ROUND_TRIP: LLMRequest = {
  model: 'gemini-2.5-flash',
  systemPrompt: 'Be terse.',
  messages: [
    { role: 'user', content: 'Weather in Paris and Rome?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', name: 'get_weather', args: { location: 'Paris' } },
        { id: 'c2', name: 'get_weather', args: { location: 'Rome' } },
      ],
    },
    { role: 'tool', toolCallId: 'c1', content: '{"celsius":18}' },
    { role: 'tool', toolCallId: 'c2', content: '{"celsius":24}' },
  ],
  tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: WEATHER_SCHEMA }],
  temperature: 0.2,
  maxTokens: 500,
};

/** Shaped like a gemini-2.5-flash answer with a thought summary, then a function call. */
const CALL_ANSWER = geminiChunk(
  [
    { text: 'The user wants the weather.', thought: true },
    { functionCall: { name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: 'CiQB0e2Kb1' },
  ],
  'STOP',
  geminiUsage({ prompt: 1302, candidates: 20, thoughts: 180, cached: 1024 }),
);

describe('gemini', () => {
  it('posts to models/{model}:generateContent with the key header, systemInstruction, contents and functionDeclarations', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, CALL_ANSWER));
    await gemini({ baseURL: server.url, apiKey: 'AIza-key' }).complete(ROUND_TRIP);
    const sent = onlyPost(server, '/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': 'AIza-key', 'content-type': 'application/json' });
    expect(sent.json).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { location: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { location: 'Rome' } } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { name: 'get_weather', content: '{"celsius":18}' } } },
            { functionResponse: { name: 'get_weather', response: { name: 'get_weather', content: '{"celsius":24}' } } },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be terse.' }] },
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Current weather', parametersJsonSchema: WEATHER_SCHEMA }] }],
      generationConfig: { temperature: 0.2, maxOutputTokens: 500 },
    });
  });

  it('declares a tool\'s JSON Schema as parametersJsonSchema, as given: `parameters` is an OpenAPI subset that refuses $schema, $ref, $defs and additionalProperties (400 "Unknown name")', async () => {
    // what zod 4 (z.toJSONSchema) and an MCP SDK v2 server give: a dialect, a shared definition, a closed object
    const zodSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { from: { $ref: '#/$defs/place' }, to: { $ref: '#/$defs/place' } },
      required: ['from', 'to'],
      additionalProperties: false,
      $defs: { place: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
    };
    const server = await serve((_req, res) => sendJson(res, 200, CALL_ANSWER));
    await gemini({ baseURL: server.url }).complete({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Route?' }], tools: [{ name: 'route', description: 'A route', inputSchema: zodSchema }] });
    const sent = onlyPost(server, '/v1beta/models/gemini-2.5-flash:generateContent', {}).json as { tools: unknown };
    expect(sent.tools).toEqual([{ functionDeclarations: [{ name: 'route', description: 'A route', parametersJsonSchema: zodSchema }] }]);
  });

  it('reads a function call past a thought summary; output counts the thinking tokens, reasoning gives them apart', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, CALL_ANSWER));
    const response = await gemini({ baseURL: server.url }).complete(ROUND_TRIP);
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]!.id).toMatch(/^gemini_call_\d+_0$/);
    expect({ ...response, toolCalls: response.toolCalls.map(({ name, args }) => ({ name, args })) }).toEqual({
      content: '',
      toolCalls: [{ name: 'get_weather', args: { location: 'Paris' } }],
      stopReason: 'tool_use',
      usage: { input: 1302, output: 200, cacheRead: 1024, reasoning: 180 },
      model: 'gemini-2.5-flash',
      id: 'mBwjaPmNMeWAz7IPqPXa0Qc',
    });
  });

  it('a prompt the API blocked (no candidates, promptFeedback.blockReason): an empty answer stopped by content_filter, its prompt tokens counted', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: geminiUsage({ prompt: 8 }), modelVersion: 'gemini-2.5-flash', responseId: 'r1' }));
    const response = await gemini({ baseURL: server.url }).complete(ROUND_TRIP);
    // No candidatesTokenCount: proto3 JSON leaves the 0 out (geminiFields.ts).
    expect(response).toEqual({ content: '', toolCalls: [], stopReason: 'content_filter', usage: { input: 8, output: 0 }, model: 'gemini-2.5-flash', id: 'r1' });
  });

  it('MAX_TOKENS is the port\'s max_tokens; an answer with neither candidates nor a block reason is malformed', async () => {
    const server = await serve((_req, res, index) =>
      sendJson(res, 200, index === 0 ? geminiChunk([{ text: 'It is' }], 'MAX_TOKENS', geminiUsage({ prompt: 8, candidates: 2 })) : { usageMetadata: geminiUsage({ prompt: 8 }) }),
    );
    const provider = gemini({ baseURL: server.url });
    expect((await provider.complete(ROUND_TRIP)).stopReason).toBe('max_tokens');
    const error = await failureOf(provider.complete(ROUND_TRIP));
    expect({ kind: error.kind, message: error.message }).toEqual({ kind: 'malformed_response', message: 'gemini: malformed response: no candidates[0]' });
  });

  it('a tool result that answers no earlier call is refused before anything is sent', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, CALL_ANSWER));
    const orphan: LLMRequest = { model: 'm', messages: [{ role: 'tool', toolCallId: 'nope', content: '1' }] };
    await expect(gemini({ baseURL: server.url }).complete(orphan)).rejects.toMatchObject({
      name: 'ConfigError',
      message: 'gemini: a tool result answers no tool call of an earlier assistant message',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('streams from :streamGenerateContent?alt=sse: text chunks, a whole function call, the last usage and the finish', async () => {
    const server = await serve((_req, res) =>
      void writeBody(res, [
        sse(geminiChunk([{ text: 'Checking ' }], undefined, geminiUsage({ prompt: 40 }))),
        sse(geminiChunk([{ text: 'now.' }, { functionCall: { name: 'get_weather', args: { location: 'Paris' } } }], 'STOP', geminiUsage({ prompt: 40, candidates: 12 }))),
      ]),
    );
    const { parts, error } = await drain(gemini({ baseURL: server.url }).stream!(ROUND_TRIP));
    expect(error).toBeUndefined();
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    const call = parts[2] as { id: string };
    expect(call.id).toMatch(/^gemini_call_\d+_0$/);
    expect(parts).toEqual([
      { type: 'text', delta: 'Checking ' },
      { type: 'text', delta: 'now.' },
      { type: 'tool_call', index: 0, id: call.id, name: 'get_weather', argumentsDelta: '{"location":"Paris"}' },
      { type: 'usage', usage: { input: 40, output: 12 } },
      { type: 'finish', stopReason: 'tool_use', model: 'gemini-2.5-flash', id: 'mBwjaPmNMeWAz7IPqPXa0Qc' },
    ]);
  });
});
