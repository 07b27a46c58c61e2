/**
 * Structured output (AgentOptions.output) on the two other wire formats, against real 127.0.0.1
 * servers writing the OpenAI Responses API and the Gemini API byte for byte (the recorded shapes of
 * test/runtime/providers/targets.ts): the request carries the native format (Responses'
 * `text.format` json_schema; Gemini's `generationConfig.responseMimeType` + `responseJsonSchema`),
 * the answer is parsed and validated into `result.output`, an invalid first answer is asked again
 * once (the second request, the agent.output_invalid event), and a streamed object yields exactly its
 * partial objects. The chat span of such a call says gen_ai.output.type `json`. Chat Completions and
 * Anthropic Messages: structuredOutput.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, gemini, openaiResponses, type RunStreamPart, type TypedEvent } from '../../../src/index.js';
import { startSdk, type Sdk } from '../../support/sdk.js';
import { wireServerPerTest } from '../providers/perTest.js';
import { sse } from '../providers/streaming.js';
import { geminiChunk, geminiUsage, MESSAGE_ITEM, responsesEvent, responsesMessage, responsesObject, responsesUsage } from '../providers/targets.js';
import { writeBody } from '../providers/wireServer.js';
import { inTurn, invalidEvents, retriedOsloAnswer } from './structuredOutputSupport.js';
import { runInputParts } from '../../support/lineageLinks.js';

const serve = wireServerPerTest();
let sdk: Sdk;
beforeAll(() => {
  sdk = startSdk();
});
afterEach(() => sdk.reset());
afterAll(async () => {
  await sdk.shutdown();
});

/** The attributes of the run's one chat span, without its generated call id. */
function chatAttributes(model: string) {
  const chats = sdk.spans().filter((span) => span.name === `chat ${model}`);
  expect(chats).toHaveLength(1);
  const { 'footprint.llm.call_id': callId, ...attributes } = chats[0]!.attributes;
  expect(callId).toMatch(/^call_/);
  return attributes;
}

/** The chat span's attributes every structured call here has, besides its provider's own. */
function structuredChat(server: string, model: string) {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model,
    'gen_ai.output.type': 'json',
    'server.address': '127.0.0.1',
    'server.port': Number(new URL(server).port),
    'footprint.agent': 'desk',
    'footprint.iteration': 1,
    'footprint.brain': 'default',
    'gen_ai.response.finish_reasons': ['stop'],
    'gen_ai.usage.input_tokens': 9,
    'gen_ai.usage.output_tokens': 1,
    'footprint.cost.priced': true,
  };
}

const Weather = z.object({ city: z.string(), celsius: z.number() });
/** What zod 4 gives for Weather's input as draft-07 (the schema sent on the wire). */
const WEATHER_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
};
const PROBLEM = 'output/celsius: Invalid input: expected number, received undefined';
const ASK_AGAIN = `Your answer is not valid for the required output schema: ${PROBLEM}. Answer again with JSON that matches the schema.`;

async function partsOf(stream: AsyncIterable<RunStreamPart>): Promise<RunStreamPart[]> {
  const parts: RunStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function partials(parts: RunStreamPart[]): unknown[] {
  return parts.flatMap((part) => (part.type === 'partial_output' ? [part.value] : []));
}

/** The JSON text streamed in pieces, and the partial objects those pieces give (the cut number `4` waits for what follows it). */
const PIECES = ['{"ci', 'ty":"Os', 'lo","cel', 'sius":', '4', '}'];
const PARTIALS = [{}, { city: 'Os' }, { city: 'Oslo' }, { city: 'Oslo', celsius: 4 }];

const RESPONSES_FORMAT = { format: { type: 'json_schema', name: 'output', schema: WEATHER_JSON_SCHEMA } };

/** A completed response whose one message holds `text`; it echoes the format asked for, as the API does. */
function responsesAnswer(text: string) {
  return { ...responsesObject('completed', [responsesMessage(text, 'completed')], responsesUsage({ input: 9, output: 1 })), text: RESPONSES_FORMAT };
}

const userInput = (text: string) => ({ role: 'user', content: [{ type: 'input_text', text }] });

describe('structured output on the OpenAI Responses API', () => {
  const make = (url: string) => Agent.create({ provider: openaiResponses({ baseURL: url, apiKey: 'sk-test' }), model: 'gpt-4.1', id: 'desk', output: Weather }).build();

  it('sends text.format json_schema, result.output is the validated object, and the chat span says gen_ai.output.type json', async () => {
    const server = await serve(inTurn([responsesAnswer('{"city":"Oslo","celsius":4}')]));
    const result = await make(server.url).run('Weather in Oslo?');

    expect(server.requests.map((r) => [r.path, r.json])).toEqual([
      ['/responses', { model: 'gpt-4.1', input: [userInput('Weather in Oslo?')], store: false, text: RESPONSES_FORMAT }],
    ]);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.text).toBe('{"city":"Oslo","celsius":4}');
    expect(result.stopReason).toBe('answered');
    expect(chatAttributes('gpt-4.1')).toEqual({
      ...structuredChat(server.url, 'gpt-4.1'),
      // Sent the run's input alone ("Weather in Oslo?").
      ...runInputParts(4),
      'gen_ai.provider.name': 'openai',
      'gen_ai.response.model': 'gpt-4.1-2025-04-14',
      'gen_ai.response.id': 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
      'gen_ai.usage.cache_read.input_tokens': 0,
      'gen_ai.usage.reasoning.output_tokens': 0,
      // gpt-4.1 at $2 in, $8 out per million tokens: 9 in, 1 out.
      'footprint.cost.usd': 0.000026,
    });
  });

  it('asks again once after an invalid first answer, then gives the valid output', async () => {
    const server = await serve(inTurn([responsesAnswer('{"city":"Oslo"}'), responsesAnswer('{"city":"Oslo","celsius":4}')]));
    const agent = make(server.url);
    const events: TypedEvent[] = [];
    agent.on('*', (e) => void events.push(e as TypedEvent));
    const result = await agent.run('Weather in Oslo?');

    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.json).toEqual({
      model: 'gpt-4.1',
      input: [userInput('Weather in Oslo?'), { role: 'assistant', content: '{"city":"Oslo"}' }, userInput(ASK_AGAIN)],
      store: false,
      text: RESPONSES_FORMAT,
    });
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(invalidEvents(events)).toEqual([retriedOsloAnswer(PROBLEM)]);
  });

  it('with storeResponses the second request continues the invalid answer by previous_response_id, sending only the ask again', async () => {
    const server = await serve(inTurn([responsesAnswer('{"city":"Oslo"}'), responsesAnswer('{"city":"Oslo","celsius":4}')]));
    const provider = openaiResponses({ baseURL: server.url, apiKey: 'sk-test', storeResponses: true });
    const result = await Agent.create({ provider, model: 'gpt-4.1', id: 'desk', output: Weather }).build().run('Weather in Oslo?');

    expect(server.requests.map((r) => r.json)).toEqual([
      { model: 'gpt-4.1', input: [userInput('Weather in Oslo?')], store: true, text: RESPONSES_FORMAT },
      { model: 'gpt-4.1', input: [userInput(ASK_AGAIN)], store: true, previous_response_id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b', text: RESPONSES_FORMAT },
    ]);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
  });

  it('a streamed object yields exactly its partial objects, then the validated output', async () => {
    const json = PIECES.join('');
    const server = await serve((_request, res) =>
      void writeBody(res, [
        responsesEvent('response.created', { response: responsesObject('in_progress', [], null) }),
        responsesEvent('response.in_progress', { response: responsesObject('in_progress', [], null) }),
        responsesEvent('response.output_item.added', { output_index: 0, item: responsesMessage('', 'in_progress') }),
        responsesEvent('response.content_part.added', { item_id: MESSAGE_ITEM, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
        ...PIECES.map((delta) => responsesEvent('response.output_text.delta', { item_id: MESSAGE_ITEM, output_index: 0, content_index: 0, delta })),
        responsesEvent('response.output_text.done', { item_id: MESSAGE_ITEM, output_index: 0, content_index: 0, text: json }),
        responsesEvent('response.content_part.done', { item_id: MESSAGE_ITEM, output_index: 0, content_index: 0, part: { type: 'output_text', text: json, annotations: [] } }),
        responsesEvent('response.output_item.done', { output_index: 0, item: responsesMessage(json, 'completed') }),
        responsesEvent('response.completed', { response: responsesAnswer(json) }),
      ]),
    );
    const stream = make(server.url).stream('Weather in Oslo?');
    const parts = await partsOf(stream);

    expect((server.requests[0]!.json as Record<string, unknown>).text).toEqual(RESPONSES_FORMAT);
    expect(partials(parts)).toEqual(PARTIALS);
    const result = await stream.result;
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.text).toBe(json);
  });
});

const GEMINI_CONFIG = { responseMimeType: 'application/json', responseJsonSchema: WEATHER_JSON_SCHEMA };
const MODEL = 'gemini-2.5-flash';

function geminiAnswer(text: string) {
  return geminiChunk([{ text }], 'STOP', geminiUsage({ prompt: 9, candidates: 1 }));
}

const userTurn = (text: string) => ({ role: 'user', parts: [{ text }] });

describe('structured output on the Gemini API', () => {
  const make = (url: string) => Agent.create({ provider: gemini({ baseURL: url, apiKey: 'AIza-test-key' }), model: MODEL, id: 'desk', output: Weather }).build();

  it('sends generationConfig.responseMimeType and responseJsonSchema, result.output is the validated object, and the chat span says gen_ai.output.type json', async () => {
    const server = await serve(inTurn([geminiAnswer('{"city":"Oslo","celsius":4}')]));
    const result = await make(server.url).run('Weather in Oslo?');

    expect(server.requests.map((r) => [r.path, r.json])).toEqual([
      [`/v1beta/models/${MODEL}:generateContent`, { contents: [userTurn('Weather in Oslo?')], generationConfig: GEMINI_CONFIG }],
    ]);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.text).toBe('{"city":"Oslo","celsius":4}');
    expect(result.stopReason).toBe('answered');
    expect(chatAttributes(MODEL)).toEqual({
      ...structuredChat(server.url, MODEL),
      // Sent the run's input alone ("Weather in Oslo?").
      ...runInputParts(4),
      'gen_ai.provider.name': 'gcp.gemini',
      'gen_ai.response.model': 'gemini-2.5-flash',
      'gen_ai.response.id': 'mBwjaPmNMeWAz7IPqPXa0Qc',
      // gemini-2.5-flash at $0.30 in, $2.50 out per million tokens: 9 in, 1 out.
      'footprint.cost.usd': 0.0000052,
    });
  });

  it('asks again once after an invalid first answer, then gives the valid output', async () => {
    const server = await serve(inTurn([geminiAnswer('{"city":"Oslo"}'), geminiAnswer('{"city":"Oslo","celsius":4}')]));
    const agent = make(server.url);
    const events: TypedEvent[] = [];
    agent.on('*', (e) => void events.push(e as TypedEvent));
    const result = await agent.run('Weather in Oslo?');

    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.json).toEqual({
      contents: [userTurn('Weather in Oslo?'), { role: 'model', parts: [{ text: '{"city":"Oslo"}' }] }, userTurn(ASK_AGAIN)],
      generationConfig: GEMINI_CONFIG,
    });
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(invalidEvents(events)).toEqual([retriedOsloAnswer(PROBLEM)]);
  });

  it('a streamed object yields exactly its partial objects, then the validated output', async () => {
    const server = await serve((_request, res) =>
      void writeBody(res, [
        ...PIECES.map((text) => sse(geminiChunk([{ text }], undefined, geminiUsage({ prompt: 9 })))),
        sse(geminiChunk([{ text: '' }], 'STOP', geminiUsage({ prompt: 9, candidates: 12 }))),
      ]),
    );
    const stream = make(server.url).stream('Weather in Oslo?');
    const parts = await partsOf(stream);

    expect(server.requests.map((r) => [r.path, r.json])).toEqual([
      [`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, { contents: [userTurn('Weather in Oslo?')], generationConfig: GEMINI_CONFIG }],
    ]);
    expect(partials(parts)).toEqual(PARTIALS);
    const result = await stream.result;
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.text).toBe(PIECES.join(''));
  });
});
