/**
 * The shared suite's telemetry case: an agent run on each HTTP provider (targets.ts) against its own
 * 127.0.0.1 server, through the real SDK, gives one chat span with exactly the GenAI attributes the
 * conventions ask for: the provider's well-known name, the server from the base URL, the usage the
 * API reported, the answering model, response id and finish reason. And the Ollama and vLLM recipe
 * (docs/local-models.md): openaiCompatible with `name` reports that name as gen_ai.provider.name.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, openaiCompatible, openaiResponses } from '../../src/index.js';
import { runInputParts } from '../support/lineageLinks.js';
import { startSdk } from '../support/sdk.js';
import { wireServerPerTest } from '../runtime/providers/perTest.js';
import { targets } from '../runtime/providers/targets.js';
import { sendJson } from '../runtime/providers/wireServer.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());
const serve = wireServerPerTest();

/** The attributes of the run's one chat span, without its generated call id. */
function chatAttributes(model: string) {
  const chats = sdk.spans().filter((span) => span.name === `chat ${model}`);
  expect(chats).toHaveLength(1);
  const { 'footprint.llm.call_id': callId, ...attributes } = chats[0]!.attributes;
  expect(callId).toMatch(/^call_/);
  return attributes;
}

function usageAttributes(usage: { input: number; output: number; cacheRead?: number; reasoning?: number }) {
  return {
    'gen_ai.usage.input_tokens': usage.input,
    'gen_ai.usage.output_tokens': usage.output,
    ...(usage.cacheRead === undefined ? {} : { 'gen_ai.usage.cache_read.input_tokens': usage.cacheRead }),
    ...(usage.reasoning === undefined ? {} : { 'gen_ai.usage.reasoning.output_tokens': usage.reasoning }),
  };
}

describe.each(targets)('$label telemetry', (target) => {
  it('one chat span with the provider name, server, usage, response model and id, finish reason', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, target.ok));
    const agent = Agent.create({ id: 'helper', provider: target.make(server.url, {}), model: 'test-model' }).build();
    expect((await agent.run('ping')).text).toBe('pong');
    const port = Number(new URL(server.url).port);
    expect(chatAttributes('test-model')).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': target.providerName,
      'gen_ai.request.model': 'test-model',
      'server.address': '127.0.0.1',
      'server.port': port,
      'footprint.agent': 'helper',
      'footprint.iteration': 1,
      'footprint.brain': 'default',
      ...runInputParts(1),
      'gen_ai.response.model': target.okReads.model,
      'gen_ai.response.id': target.okReads.id,
      'gen_ai.response.finish_reasons': ['stop'],
      ...usageAttributes(target.okReads.usage),
      'footprint.cost.usd': 0,
      'footprint.cost.priced': false,
    });
  });
});

describe('local models through openaiCompatible (the Ollama and vLLM recipe)', () => {
  /** Shaped like Ollama's and vLLM's /v1/chat/completions answers (no prompt_tokens_details). */
  const answer = (model: string, id: string) => ({
    id,
    object: 'chat.completion',
    created: 1736938234,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 },
  });

  it.each([
    ['ollama', 'llama3.2', 'chatcmpl-457'],
    ['vllm', 'Qwen/Qwen2.5-7B-Instruct', 'chatcmpl-8f6e2b1c9a7d4e3f'],
  ])('%s: gen_ai.provider.name is the name given, the server its base URL', async (name, model, id) => {
    const server = await serve((_req, res) => sendJson(res, 200, answer(model, id)));
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, name });
    const agent = Agent.create({ id: 'local', provider, model }).build();
    expect((await agent.run('ping')).text).toBe('pong');
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(chatAttributes(model)).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': name,
      'gen_ai.request.model': model,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.url).port),
      'footprint.agent': 'local',
      'footprint.iteration': 1,
      'footprint.brain': 'default',
      ...runInputParts(1),
      'gen_ai.response.model': model,
      'gen_ai.response.id': id,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 1,
      'footprint.cost.usd': 0,
      'footprint.cost.priced': false,
    });
  });
});

describe('the reasoning effort', () => {
  it('is gen_ai.request.reasoning.level on the chat span, as sent', async () => {
    const target = targets.find((candidate) => candidate.label === 'openaiResponses')!;
    const server = await serve((_req, res) => sendJson(res, 200, target.ok));
    const agent = Agent.create({ id: 'thinker', provider: target.make(server.url, {}), model: 'test-model', reasoningEffort: 'low' }).build();
    expect((await agent.run('ping')).text).toBe('pong');
    expect(chatAttributes('test-model')['gen_ai.request.reasoning.level']).toBe('low');
    expect((server.requests[0]!.json as { reasoning?: unknown }).reasoning).toEqual({ effort: 'low' });
  });
});

describe('a continued stored response (openaiResponses with storeResponses)', () => {
  it('the chat span of the call that continued it carries gen_ai.request.previous_response.id', async () => {
    const call = { type: 'function_call', id: 'fc_1', status: 'completed', call_id: 'call_1', name: 'lookup', arguments: '{"id":"INV-42"}' };
    const answer = (id: string, output: unknown[]) => ({ id, object: 'response', status: 'completed', model: 'gpt-4.1-2025-04-14', output, usage: null });
    const server = await serve((_req, res, index) =>
      sendJson(res, 200, index === 0 ? answer('resp_1', [call]) : answer('resp_2', [{ type: 'message', id: 'msg_2', role: 'assistant', content: [{ type: 'output_text', text: 'paid' }] }])),
    );
    const lookup = { name: 'lookup', description: 'Look up an invoice', inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, execute: () => 'paid' };
    const agent = Agent.create({ id: 'billing', provider: openaiResponses({ baseURL: server.url, storeResponses: true }), model: 'gpt-4.1' }).tool(lookup).build();
    expect((await agent.run('Is INV-42 paid?')).text).toBe('paid');
    const chats = sdk.spans().filter((span) => span.name === 'chat gpt-4.1');
    expect(chats.map((span) => [span.attributes['gen_ai.response.id'], span.attributes['gen_ai.request.previous_response.id']])).toEqual([
      ['resp_1', undefined],
      ['resp_2', 'resp_1'],
    ]);
    expect((server.requests[1]!.json as { previous_response_id?: string }).previous_response_id).toBe('resp_1');
  });
});
