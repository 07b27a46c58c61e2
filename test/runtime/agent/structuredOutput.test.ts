/**
 * Structured output (AgentOptions.output) against real 127.0.0.1 servers writing Chat Completions and
 * Anthropic Messages byte for byte: the request carries the native format (response_format
 * json_schema; a forced tool), the answer is parsed and validated into `result.output` while `text`
 * stays the raw JSON, an invalid answer is asked again with the problem told to the model (the
 * agent.output_invalid event, a span event on the trace), retries used up fail the run with
 * StructuredOutputError, and a streamed object yields its partial objects.
 */
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Agent, anthropic, ConfigError, LLMCall, openaiCompatible, Parallel, RunFailedError, scripted, Sequence, StructuredOutputError, swarm, type RunStreamPart, type Tool, type TypedEvent } from '../../../src/index.js';
import { startSdk, type Sdk } from '../../support/sdk.js';
import { wireServerPerTest } from '../providers/perTest.js';
import { sse } from '../providers/streaming.js';
import { writeBody } from '../providers/wireServer.js';
import { inTurn, invalidEvents, retriedOsloAnswer } from './structuredOutputSupport.js';
import { echoAgent } from '../../support/compositions.js';

const serve = wireServerPerTest();
let sdk: Sdk;
beforeAll(() => {
  sdk = startSdk();
});
afterEach(() => sdk.reset());
afterAll(async () => {
  await sdk.shutdown();
});

const Weather = z.object({ city: z.string(), celsius: z.number() });
/** What zod 4 gives for Weather's input as draft-07 (the schema sent on the wire). */
const WEATHER_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
};
/** The same shape as a JSON Schema (2020-12) given directly. */
const WEATHER_2020 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

function chatCompletion(content: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1741569952,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
  };
}

function claudeToolAnswer(input: unknown) {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-3-5-haiku-20241022',
    content: [{ type: 'tool_use', id: 'toolu_01', name: 'output', input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 9, output_tokens: 1 },
  };
}

function spanEvents(name: string) {
  return sdk.spans().flatMap((span) => span.events.filter((e) => e.name === name).map((e) => ({ span: span.name, attributes: e.attributes })));
}

const OPENAI_FORMAT = { type: 'json_schema', json_schema: { name: 'output', schema: WEATHER_JSON_SCHEMA } };

describe('structured output on Chat Completions', () => {
  it('sends response_format json_schema, and result.output is the validated object (typed by the zod schema)', async () => {
    const server = await serve(inTurn([chatCompletion('{"city":"Oslo","celsius":4}')]));
    const agent = Agent.create({ provider: openaiCompatible({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4o-mini', id: 'desk', output: Weather }).build();
    const result = await agent.run('Weather in Oslo?');

    expect(server.requests.map((r) => r.json)).toEqual([
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Oslo?' }], response_format: OPENAI_FORMAT },
    ]);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.text).toBe('{"city":"Oslo","celsius":4}');
    expect(result.stopReason).toBe('answered');
    expectTypeOf(result.output).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
    // @ts-expect-error: the schema has no field `town`
    void result.output?.town;
    // A JSON Schema infers nothing: unknown.
    expectTypeOf(LLMCall.create({ provider: openaiCompatible({ baseURL: server.url }), model: 'm', output: WEATHER_2020 }).build().run).returns.resolves.toHaveProperty('output').toEqualTypeOf<unknown>();
  });

  it('asks again once with the problem after an invalid answer, then gives the valid output', async () => {
    const server = await serve(inTurn([chatCompletion('{"city":"Oslo"}'), chatCompletion('{"city":"Oslo","celsius":4}')]));
    const agent = Agent.create({ provider: openaiCompatible({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4o-mini', id: 'desk', output: Weather }).build();
    const events: TypedEvent[] = [];
    agent.on('*', (e) => void events.push(e as TypedEvent));
    const result = await agent.run('Weather in Oslo?');

    const problem = 'output/celsius: Invalid input: expected number, received undefined';
    expect(server.requests[1]!.json).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: '{"city":"Oslo"}' },
        { role: 'user', content: `Your answer is not valid for the required output schema: ${problem}. Answer again with JSON that matches the schema.` },
      ],
      response_format: OPENAI_FORMAT,
    });
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(invalidEvents(events)).toEqual([retriedOsloAnswer(problem)]);
    // On the trace: a span event on CallLLM (the model's text and zod's words are content: left out without content capture).
    expect(spanEvents('footprint.agent.output_invalid')).toEqual([
      {
        span: 'CallLLM',
        attributes: {
          'footprint.member.id': 'desk',
          'footprint.member.kind': 'agent',
          'footprint.agent.output_invalid.agent_id': 'desk',
          'footprint.agent.output_invalid.turn_id': expect.stringMatching(/^turn_/),
          'footprint.agent.output_invalid.iteration': 1,
          'footprint.agent.output_invalid.call_id': expect.stringMatching(/^call_/),
          'footprint.agent.output_invalid.attempt': 1,
          'footprint.agent.output_invalid.retrying': true,
          'footprint.agent.output_invalid.error.type': 'invalid_output',
          'footprint.agent.output_invalid.error.message': 'message not recorded: content capture is off',
        },
      },
    ]);
  });

  it('an answer in one wrapping code fence is JSON (as a router decision is); prose around JSON is not', async () => {
    const fenced = '```json\n{"city":"Oslo","celsius":4}\n```';
    const server = await serve(inTurn([chatCompletion(fenced), chatCompletion('The answer: {"city":"Oslo","celsius":4}'), chatCompletion('{"city":"Oslo","celsius":4}')]));
    const call = LLMCall.create({ provider: openaiCompatible({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4o-mini', id: 'weather', output: WEATHER_2020 }).build();
    const first = await call.run('Weather in Oslo?');
    expect({ output: first.output, text: first.text, requests: server.requests.length }).toEqual({ output: { city: 'Oslo', celsius: 4 }, text: fenced, requests: 1 });
    const second = await call.run('Weather in Oslo?');
    expect({ output: second.output, requests: server.requests.length }).toEqual({ output: { city: 'Oslo', celsius: 4 }, requests: 3 });
  });

  it('an answer that is not JSON is asked again with a fixed problem; retries used up fail the run with StructuredOutputError', async () => {
    const server = await serve(inTurn([chatCompletion('Sure! It is 4 degrees.'), chatCompletion('{"city":4}')]));
    const call = LLMCall.create({ provider: openaiCompatible({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4o-mini', id: 'weather', output: WEATHER_2020 }).build();
    const events: TypedEvent[] = [];
    call.on('*', (e) => void events.push(e as TypedEvent));
    const error = await call.run('Weather in Oslo?').then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(RunFailedError);
    // What the two answers spent stays with the failure: 9 in / 1 out each, gpt-4o-mini at $0.15 / $0.60 per million.
    expect({ usage: (error as RunFailedError).usage, cost: (error as RunFailedError).cost }).toEqual({ usage: { input: 18, output: 2 }, cost: { usd: 0.0000039, priced: true } });
    const cause = (error as RunFailedError).cause;
    expect(cause).toBeInstanceOf(StructuredOutputError);
    expect(cause).toMatchObject({ agentId: 'weather', attempts: 2, text: '{"city":4}', message: 'agent "weather": no valid structured output after 2 answer(s)' });
    expect((server.requests[1]!.json as { messages: unknown[] }).messages[2]).toEqual({
      role: 'user',
      content: 'Your answer is not valid for the required output schema: the answer is not JSON: answer with one JSON value only, no other text. Answer again with JSON that matches the schema.',
    });
    expect(server.requests).toHaveLength(2);
    expect(invalidEvents(events).map(({ attempt, retrying, text, error }) => ({ attempt, retrying, text, error }))).toEqual([
      { attempt: 1, retrying: true, text: 'Sure! It is 4 degrees.', error: { type: 'invalid_output', message: 'the answer is not JSON: answer with one JSON value only, no other text', ownText: true } },
      { attempt: 2, retrying: false, text: '{"city":4}', error: { type: 'invalid_output', message: (cause as StructuredOutputError).problem, ownText: true } },
    ]);
    expect((cause as StructuredOutputError).problem).toBe("output must have required property 'celsius', output/city must be string");
    // The run span says it failed, with no stop reason (a failure is not a stop).
    const roots = sdk.spans().filter((span) => span.parentSpanContext === undefined);
    expect(roots.map((span) => [span.attributes['footprint.run.outcome'], span.attributes['footprint.run.stop_reason']])).toEqual([['error', undefined]]);
  });
});

const ANTHROPIC_TOOLS = { tools: [{ name: 'output', description: 'Answer with the output object.', input_schema: WEATHER_2020 }], tool_choice: { type: 'tool', name: 'output' } };

describe('structured output on Anthropic Messages', () => {
  it('forces the output tool, reads its input as the answer (no tool runs), and asks again after an invalid one', async () => {
    const server = await serve(inTurn([claudeToolAnswer({ city: 'Oslo', celsius: 'cold' }), claudeToolAnswer({ city: 'Oslo', celsius: 4 })]));
    const agent = Agent.create({ provider: anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }), model: 'claude-3-5-haiku-20241022', id: 'desk', output: WEATHER_2020 }).build();
    const events: TypedEvent[] = [];
    agent.on('*', (e) => void events.push(e as TypedEvent));
    const result = await agent.run('Weather in Oslo?');

    const problem = 'output/celsius must be number';
    expect(server.requests.map((r) => r.json)).toEqual([
      { model: 'claude-3-5-haiku-20241022', max_tokens: 1024, messages: [{ role: 'user', content: 'Weather in Oslo?' }], ...ANTHROPIC_TOOLS },
      {
        model: 'claude-3-5-haiku-20241022',
        max_tokens: 1024,
        messages: [
          { role: 'user', content: 'Weather in Oslo?' },
          { role: 'assistant', content: '{"city":"Oslo","celsius":"cold"}' },
          { role: 'user', content: `Your answer is not valid for the required output schema: ${problem}. Answer again with JSON that matches the schema.` },
        ],
        ...ANTHROPIC_TOOLS,
      },
    ]);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.text).toBe('{"city":"Oslo","celsius":4}');
    expect(result.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: '{"city":"Oslo","celsius":"cold"}' },
      { role: 'user', content: `Your answer is not valid for the required output schema: ${problem}. Answer again with JSON that matches the schema.` },
      { role: 'assistant', content: '{"city":"Oslo","celsius":4}' },
    ]);
    expect(events.filter((e) => e.type === 'footprint.call.tool_start')).toEqual([]);
    expect(invalidEvents(events).map(({ attempt, retrying, error }) => ({ attempt, retrying, error }))).toEqual([
      { attempt: 1, retrying: true, error: { type: 'invalid_output', message: problem, ownText: true } },
    ]);
  });
});

async function partsOf(stream: AsyncIterable<RunStreamPart>): Promise<RunStreamPart[]> {
  const parts: RunStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function partials(parts: RunStreamPart[]): unknown[] {
  return parts.flatMap((part) => (part.type === 'partial_output' ? [part.value] : []));
}

const chatChunk = (delta: Record<string, unknown>, finish: string | null) =>
  sse({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1741569952, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] });

describe('a streamed structured answer', () => {
  /** The desk agent's answer streamed by a Chat Completions server in `pieces`: its parts and its output. */
  async function streamedAnswer(pieces: string[]) {
    const server = await serve((_request, res) =>
      void writeBody(res, [chatChunk({ role: 'assistant', content: '' }, null), ...pieces.map((p) => chatChunk({ content: p }, null)), chatChunk({}, 'stop'), 'data: [DONE]\n\n']),
    );
    const agent = Agent.create({ provider: openaiCompatible({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4o-mini', id: 'desk', output: Weather }).build();
    const stream = agent.stream('Weather in Oslo?');
    return { parts: await partsOf(stream), result: await stream.result };
  }

  it('Chat Completions: yields the partial objects as the JSON text grows, then the validated output', async () => {
    const { parts, result } = await streamedAnswer(['{"ci', 'ty":"Os', 'lo","cel', 'sius":', '4', '}']);
    expect(partials(parts)).toEqual([{}, { city: 'Os' }, { city: 'Oslo' }, { city: 'Oslo', celsius: 4 }]);
    expect(parts.find((p) => p.type === 'partial_output')).toEqual({ type: 'partial_output', value: {}, callId: expect.stringMatching(/^call_/), member: { kind: 'agent', id: 'desk' }, agentId: 'desk', route: '' });
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expectTypeOf(result.output).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
  });

  it('the end part holds the result as stream.result has it, typed the same (npm run typecheck)', async () => {
    const server = await serve((_request, res) => void writeBody(res, [chatChunk({ role: 'assistant', content: '{"city":"Oslo","celsius":4}' }, null), chatChunk({}, 'stop'), 'data: [DONE]\n\n']));
    const agent = Agent.create({ provider: openaiCompatible({ baseURL: server.url, apiKey: 'sk-test' }), model: 'gpt-4o-mini', id: 'desk', output: Weather }).build();
    const stream = agent.stream('Weather in Oslo?');
    let ended: { city: string; celsius: number } | undefined;
    for await (const part of stream) {
      if (part.type !== 'end') continue;
      expectTypeOf(part.result.output).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
      ended = part.result.output;
    }
    expect(ended).toEqual({ city: 'Oslo', celsius: 4 });
    expect(ended).toBe((await stream.result).output);
  });

  it('Chat Completions: an answer in one wrapping code fence streams the same partial objects', async () => {
    const { parts, result } = await streamedAnswer(['```js', 'on\n{"ci', 'ty":"Os', 'lo","cel', 'sius":', '4', '}\n`', '``']);
    expect(partials(parts)).toEqual([{}, { city: 'Os' }, { city: 'Oslo' }, { city: 'Oslo', celsius: 4 }]);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
  });

  it("Anthropic: yields the partial objects of the forced tool's input_json_delta", async () => {
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-3-5-haiku-20241022' };
    const deltas = ['', '{"city": "Os', 'lo", "cel', 'sius": 4}'];
    const server = await serve((_request, res) =>
      void writeBody(res, [
        sse({ type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } } }, 'message_start'),
        sse({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_01', name: 'output', input: {} } }, 'content_block_start'),
        ...deltas.map((partial_json) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json } }, 'content_block_delta')),
        sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
        sse({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 12 } }, 'message_delta'),
        sse({ type: 'message_stop' }, 'message_stop'),
      ]),
    );
    const agent = Agent.create({ provider: anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }), model: 'claude-3-5-haiku-20241022', id: 'desk', output: WEATHER_2020 }).build();
    const stream = agent.stream('Weather in Oslo?');
    const parts = await partsOf(stream);

    expect(partials(parts)).toEqual([{ city: 'Os' }, { city: 'Oslo' }, { city: 'Oslo', celsius: 4 }]);
    expect(parts.filter((p) => p.type === 'tool_call')).toEqual([]);
    const result = await stream.result;
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.text).toBe('{"city":"Oslo","celsius":4}');
  });
});

describe('output options', () => {
  it('refuses a schema it cannot use and outputRetries without output, naming the field', () => {
    const provider = openaiCompatible({ baseURL: 'http://127.0.0.1:9', apiKey: 'sk-test' });
    expect(() => Agent.create({ provider, model: 'm', output: 'a string' as never }).build()).toThrow(
      'agent "agent": its output schema cannot be used: it is neither a JSON Schema (a plain object) nor a Standard Schema (zod 4, valibot, arktype)',
    );
    expect(() => Agent.create({ provider, model: 'm', outputRetries: 2 }).build()).toThrow('agent "agent": outputRetries needs output (a schema)');
    expect(() => LLMCall.create({ provider, model: 'm', output: Weather, outputRetries: 11 }).build()).toThrow(/outputRetries/);
  });

  it('refuses an output schema whose root is no object (OpenAI and Anthropic take only an object), naming the field', () => {
    const provider = openaiCompatible({ baseURL: 'http://127.0.0.1:9', apiKey: 'sk-test' });
    const hint = '(put a list or a value under a field: z.object({ items: z.array(...) }))';
    const cases: [string, unknown, string][] = [
      ['agent', z.array(Weather), '"array"'],
      ['agent', z.string(), '"string"'],
      ['llm_call', { anyOf: [{ type: 'object' }, { type: 'null' }] }, 'none'],
    ];
    for (const [kind, output, type] of cases) {
      const build = () =>
        kind === 'agent' ? Agent.create({ provider, model: 'm', id: 'desk', output: output as never }).build() : LLMCall.create({ provider, model: 'm', id: 'desk', output: output as never }).build();
      const owner = kind === 'agent' ? 'agent "desk"' : 'llm_call "desk"';
      expect(build).toThrow(new ConfigError(`${owner}: its output schema must describe an object (type "object"), as the providers take structured output as one; it has type ${type} ${hint}`, { field: 'output' }));
    }
  });

  it('a tool named "output" (the name the format is sent under) is refused with output set: its calls were taken for the answer, the tool never ran', () => {
    const writeReport: Tool = { name: 'output', description: 'Writes the report', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, execute: () => 'written' };
    const build = () => Agent.create({ provider: scripted({ replies: ['{}'] }), model: 'm', id: 'desk', output: Weather }).tool(writeReport).build();
    expect(build).toThrow(
      'agent "desk": tool "output": "output" is the name structured output is sent under (a forced tool on Anthropic, and the call read as the answer): rename the tool, or leave out output',
    );
    expect(() => Agent.create({ provider: scripted({ replies: ['{}'] }), model: 'm', id: 'desk', output: Weather }).tools({ tools: () => [writeReport] }).build()).toThrow(
      'agent "desk": tool "output": "output" is the name structured output is sent under (a forced tool on Anthropic, and the call read as the answer): rename the tool, or leave out output',
    );
    // Without output the name is free.
    expect(() => Agent.create({ provider: scripted({ replies: ['x'] }), model: 'm' }).tool(writeReport).build()).not.toThrow();
  });

  it('a tool named "output" that a tool source lists later is left out of the offer, as a name taken is', async () => {
    const lookup: Tool = { name: 'lookup', description: 'Looks up', inputSchema: { type: 'object', properties: {} }, execute: () => 'found' };
    const writeReport: Tool = { name: 'output', description: 'Writes the report', inputSchema: { type: 'object', properties: {} }, execute: () => 'written' };
    const listed = [lookup];
    const provider = scripted({ replies: ['{"city":"Oslo","celsius":4}'] });
    const agent = Agent.create({ provider, model: 'm', output: Weather }).tools({ tools: () => listed }).build();
    listed.push(writeReport);
    const result = await agent.run('Weather in Oslo?');
    expect(provider.calls[0]!.tools?.map((tool) => tool.name)).toEqual(['lookup']);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
  });
});

describe('an agent with output in a composition', () => {
  it('is a member of any composition (a Runner: npm run typecheck), and the next step gets its JSON text', async () => {
    const typed = () => Agent.create({ provider: scripted({ replies: ['{"city":"Oslo","celsius":4}'] }), model: 'm', id: 'weather', output: Weather }).build();
    const next = echoAgent('next');
    const pipe = Sequence.create({ id: 'pipe' }).step('weather', typed()).step('next', next.agent).build();
    const both = Parallel.create({ id: 'both' }).branch('weather', typed()).branch('other', echoAgent('other').agent).merge((results) => results.map((r) => r.id).join(',')).build();
    const desk = swarm({ id: 'desk', agents: [{ id: 'weather', runner: typed() }], pick: ({ lastAgent }) => (lastAgent === undefined ? 'weather' : undefined) });

    expect((await pipe.run('Weather in Oslo?')).text).toBe('next({"city":"Oslo","celsius":4})');
    expect((await both.run('Weather in Oslo?')).text).toBe('weather,other');
    expect((await desk.run('Weather in Oslo?')).text).toBe('{"city":"Oslo","celsius":4}');
  });
});
