/**
 * Tool-call arguments a model wrote that are no JSON object (cut short by max_tokens, a local model's
 * stray comma, an array) are the call's fault, not the reply's: the reply keeps its usage and stop
 * reason, the call is answered with an invalid_args error result the model sees (never run, never a
 * crash), the text goes back as written, and the model's next call runs. Through complete() and
 * stream() on the Chat Completions and Responses wire formats, against 127.0.0.1 servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdk, type Sdk } from '../../support/sdk.js';
import { Agent, anthropic, defineSkill, openaiCompatible, openaiResponses, skillGraph, StructuredOutputError, type LLMProvider, type TypedEvent } from '../../../src/index.js';
import { estimateTokens } from '../../../src/runtime/agent/index.js';
import { openaiUsage } from './openaiWire.js';
import { wireServerPerTest } from './perTest.js';
import { sse } from './streaming.js';
import { sendJson, writeBody, type SeenRequest } from './wireServer.js';
import type { ServerResponse } from 'node:http';

const serve = wireServerPerTest();
let sdk: Sdk;
beforeAll(() => {
  sdk = startSdk();
});
afterAll(async () => {
  await sdk.shutdown();
});

const CUT = '{"city": "Par';
const ANSWER = 'Paris: 18 °C.';
const ERROR_RESULT = 'Invalid arguments for tool "get_weather": they are not a JSON object. Fix them and call again.';

function weatherAgent(provider: LLMProvider, ran: string[]) {
  return Agent.create({ provider, model: 'gpt-4o-mini', id: 'weather' })
    .tool({
      name: 'get_weather',
      description: 'Current weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }: { city: string }) => {
        ran.push(city);
        return { celsius: 18 };
      },
    })
    .build();
}

/** Chat Completions: a cut call, then (seeing its error result) a good one, then the answer. */
function chatServer(stream: boolean) {
  const completion = (message: Record<string, unknown>, finish: string) => ({
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }],
    usage: openaiUsage({ prompt: 30, completion: 8 }),
  });
  const call = (id: string, args: string) => ({ id, type: 'function', function: { name: 'get_weather', arguments: args } });
  const replies = [
    completion({ tool_calls: [call('call_1', CUT)] }, 'length'),
    completion({ tool_calls: [call('call_2', '{"city":"Paris"}')] }, 'tool_calls'),
    completion({ content: ANSWER }, 'stop'),
  ];
  return (_request: SeenRequest, res: ServerResponse, index: number) => {
    const reply = replies[index]!;
    if (!stream) return sendJson(res, 200, reply);
    const { message, finish_reason } = reply.choices[0]!;
    const { tool_calls, content } = message as { tool_calls?: ReturnType<typeof call>[]; content: string | null };
    const chunk = (delta: unknown, finish: string | null, usage?: unknown) =>
      sse({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) });
    // A call's arguments arrive in two fragments, as servers stream them.
    const deltas = tool_calls
      ? tool_calls.flatMap((c, i) => [
          chunk({ tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments.slice(0, 5) } }] }, null),
          chunk({ tool_calls: [{ index: i, function: { arguments: c.function.arguments.slice(5) } }] }, null),
        ])
      : [chunk({ content }, null)];
    void writeBody(res, [chunk({ role: 'assistant' }, null), ...deltas, chunk({}, finish_reason, reply.usage), 'data: [DONE]\n\n']);
  };
}

describe('tool-call arguments that are no JSON object', () => {
  for (const stream of [false, true]) {
    it(`Chat Completions ${stream ? 'stream()' : 'complete()'}: an error result the model sees, the text sent back as written, the next call runs`, async () => {
      const server = await serve(chatServer(stream));
      const ran: string[] = [];
      const agent = weatherAgent(openaiCompatible({ baseURL: server.url }), ran);
      const events: TypedEvent[] = [];
      agent.on('footprint.call.tool_end', (event) => void events.push(event));
      agent.on('footprint.call.llm_end', (event) => void events.push(event));
      const result = stream ? await agent.stream('Weather in Paris?').result : await agent.run('Weather in Paris?');

      expect({ text: result.text, ran, requests: server.requests.length }).toEqual({ text: ANSWER, ran: ['Paris'], requests: 3 });
      const second = (server.requests[1]!.json as { messages: unknown[] }).messages;
      expect(second.slice(1)).toEqual([
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: CUT } }] },
        { role: 'tool', tool_call_id: 'call_1', content: ERROR_RESULT },
      ]);
      const firstEnd = events.find((event) => event.type === 'footprint.call.llm_end')!.payload as { stopReason: string; usage?: unknown };
      expect({ stopReason: firstEnd.stopReason, usage: firstEnd.usage }).toEqual({ stopReason: 'max_tokens', usage: { input: 30, output: 8, cacheRead: 0, reasoning: 0 } });
      const toolEnds = events.filter((event) => event.type === 'footprint.call.tool_end').map((event) => {
        const { toolCallId, status, result: text, error } = event.payload as { toolCallId: string; status: string; result: string; error?: unknown };
        return { toolCallId, status, text, error };
      });
      expect(toolEnds).toEqual([
        { toolCallId: 'call_1', status: 'invalid_args', text: ERROR_RESULT, error: { type: 'invalid_args', message: 'the arguments are not a JSON object', ownText: true } },
        { toolCallId: 'call_2', status: 'ok', text: '{"celsius":18}', error: undefined },
      ]);
    });
  }

  it('the trace says why: the cut reply\'s chat span has its usage, finish reason length and the arguments judged invalid', async () => {
    sdk.reset();
    const server = await serve(chatServer(false));
    await weatherAgent(openaiCompatible({ baseURL: server.url }), []).run('Weather in Paris?');
    const first = sdk.spans().filter((span) => span.name === 'chat gpt-4o-mini').find((span) => span.attributes['footprint.iteration'] === 1)!;
    expect({
      finish: first.attributes['gen_ai.response.finish_reasons'],
      input: first.attributes['gen_ai.usage.input_tokens'],
      output: first.attributes['gen_ai.usage.output_tokens'],
      evaluations: first.events.filter((event) => event.name === 'gen_ai.evaluation.result').map((event) => event.attributes),
    }).toEqual({
      finish: ['length'],
      input: 30,
      output: 8,
      evaluations: [
        {
          'gen_ai.evaluation.name': 'footprint.tool_arguments',
          'gen_ai.evaluation.score.value': 0,
          'gen_ai.evaluation.score.label': 'invalid',
          'gen_ai.evaluation.explanation': 'the arguments are not a JSON object',
        },
      ],
    });
    const tool = sdk.spans().find((span) => span.name === 'execute_tool get_weather' && span.attributes['footprint.tool.status'] === 'invalid_args')!;
    expect(tool.attributes['error.type']).toBe('invalid_args');
  });

  it('Responses: a function_call whose arguments are an array is answered the same way', async () => {
    const response = (output: unknown[]) => ({
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-4o-mini',
      output,
      usage: { input_tokens: 30, output_tokens: 8, total_tokens: 38 },
    });
    const call = (id: string, args: string) => ({ type: 'function_call', id: `fc_${id}`, call_id: id, name: 'get_weather', arguments: args, status: 'completed' });
    const text = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: ANSWER, annotations: [] }] };
    const replies = [response([call('call_1', '["Paris"]')]), response([call('call_2', '{"city":"Paris"}')]), response([text])];
    const server = await serve((_request, res, index) => sendJson(res, 200, replies[index]));
    const ran: string[] = [];
    const result = await weatherAgent(openaiResponses({ baseURL: server.url }), ran).run('Weather in Paris?');
    expect({ text: result.text, ran, requests: server.requests.length }).toEqual({ text: ANSWER, ran: ['Paris'], requests: 3 });
    expect((server.requests[1]!.json as { input: unknown[] }).input.slice(1)).toEqual([
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '["Paris"]' },
      { type: 'function_call_output', call_id: 'call_1', output: ERROR_RESULT },
    ]);
  });
});

describe('arguments kept as written, wherever a call is read', () => {
  it("Anthropic's forced output tool cut by max_tokens: the answer is the cut text, refused as no JSON, never taken as {}", async () => {
    const event = (data: { type: string } & Record<string, unknown>) => sse(data, data.type);
    const server = await serve((_req, res) =>
      void writeBody(res, [
        event({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }),
        event({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'output', input: {} } }),
        event({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"summary": "The parcel was lo' } }),
        event({ type: 'content_block_stop', index: 0 }),
        event({ type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 4096 } }),
        event({ type: 'message_stop' }),
      ]),
    );
    // Every field optional: {} would pass the schema.
    const agent = Agent.create({ provider: anthropic({ baseURL: server.url, apiKey: 'k', maxRetries: 0 }), model: 'claude-haiku-4-5', output: { type: 'object', properties: { summary: { type: 'string' } } }, outputRetries: 0 }).build();
    const failure = await agent.stream('Summarise.').result.then(
      () => undefined,
      (error: Error) => error.cause,
    );
    expect(failure).toBeInstanceOf(StructuredOutputError);
    expect(failure).toMatchObject({ text: '{"summary": "The parcel was lo', problem: 'the answer is not JSON: answer with one JSON value only, no other text' });
  });

  it('read_skill: invalid_args as for any tool, not a refused skill jump the loop guard counts', async () => {
    const triage = defineSkill({ id: 'triage', description: 'Triage', body: 'Triage first.' });
    const diagnose = defineSkill({ id: 'diagnose', description: 'Diagnose', body: 'Diagnose.' });
    let replies = 0;
    const provider: LLMProvider = {
      name: 'custom',
      complete: async () =>
        replies++ === 0
          ? { content: '', toolCalls: [{ id: 'c1', name: 'read_skill', args: {}, argsText: '{"id": "diag' }], stopReason: 'max_tokens' }
          : { content: 'done', toolCalls: [], stopReason: 'end_turn' },
    };
    const agent = Agent.create({ provider, model: 'm', id: 'tech' }).skillGraph(skillGraph().entry(triage).edge(triage, diagnose).build()).build();
    const events: TypedEvent[] = [];
    agent.on('footprint.call.tool_end', (event) => void events.push(event));
    agent.on('footprint.skill.rejected', (event) => void events.push(event));
    expect((await agent.run('Help')).text).toBe('done');
    expect(events.map((event) => [event.type, (event.payload as { status?: string; result?: string }).status, (event.payload as { result?: string }).result])).toEqual([
      ['footprint.call.tool_end', 'invalid_args', 'Invalid arguments for tool "read_skill": they are not a JSON object. Fix them and call again.'],
    ]);
  });

  it('the conversation window counts the text that is sent, not the empty args', () => {
    const argsText = `{"body": "${'x'.repeat(16_000)}`;
    const kept = estimateTokens({ role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'write', args: {}, argsText }] });
    expect(kept).toBe(estimateTokens({ role: 'assistant', content: 'w'.repeat('write'.length + argsText.length) }));
  });
});
