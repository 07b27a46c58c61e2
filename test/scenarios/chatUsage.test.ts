/**
 * What a `chat` span says about the call's server, usage and cost, from a real agent run through
 * the real SDK: server.address / server.port from the provider's URL, set when the span starts;
 * usage only when the provider reported it, so a response without usage has no
 * gen_ai.usage.* and an unpriced cost, and a failed call has neither usage nor finish reasons;
 * reasoning tokens as gen_ai.usage.reasoning.output_tokens.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, ProviderError, RunFailedError, scripted, type LLMProvider, type ScriptedReply } from '../../src/runtime/index.js';
import { runInputParts } from '../support/lineageLinks.js';
import { startSdk } from '../support/sdk.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const SERVER = { address: 'models.internal', port: 8443 };
const PRICING = { m1: { input: 1, output: 2 } };

/** A scripted provider that reports a server, as the HTTP providers do from their base URL. */
function onServer(replies: ScriptedReply[]): LLMProvider {
  return { ...scripted({ name: 'openai', replies }), server: SERVER };
}

const CALL = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'm1',
  'server.address': SERVER.address,
  'server.port': SERVER.port,
  'footprint.agent': 'helper',
  'footprint.iteration': 1,
  'footprint.brain': 'default',
  // Sent the run's input alone ("hi").
  ...runInputParts(1),
};

function chatSpan() {
  const chats = sdk.spans().filter((span) => span.name === 'chat m1');
  expect(chats).toHaveLength(1);
  const { 'footprint.llm.call_id': callId, ...attributes } = chats[0]!.attributes;
  expect(callId).toMatch(/^call_/);
  return attributes;
}

describe('a chat span', () => {
  it('carries the server from the span start, and the usage the provider reported', async () => {
    const agent = Agent.create({ provider: onServer([{ content: 'ok', usage: { input: 100, output: 20, cacheRead: 64 } }]), model: 'm1', id: 'helper', pricing: PRICING }).build();
    expect((await agent.run('hi')).text).toBe('ok');
    expect(chatSpan()).toEqual({
      ...CALL,
      'gen_ai.response.model': 'm1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.usage.cache_read.input_tokens': 64,
      'footprint.cost.usd': (36 * 1 + 64 * 1 + 20 * 2) / 1e6,
      'footprint.cost.priced': true,
    });
  });

  it('carries the reasoning tokens the provider reported apart', async () => {
    const agent = Agent.create({ provider: onServer([{ content: 'ok', usage: { input: 40, output: 250, reasoning: 192 } }]), model: 'm1', id: 'helper', pricing: PRICING }).build();
    expect((await agent.run('hi')).text).toBe('ok');
    expect(chatSpan()).toEqual({
      ...CALL,
      'gen_ai.response.model': 'm1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 250,
      'gen_ai.usage.reasoning.output_tokens': 192,
      'footprint.cost.usd': (40 * 1 + 250 * 2) / 1e6,
      'footprint.cost.priced': true,
    });
  });

  it('has no usage and an unpriced cost when the response reported no usage', async () => {
    const agent = Agent.create({ provider: onServer([{ content: 'ok', usage: null }]), model: 'm1', id: 'helper', pricing: PRICING }).build();
    expect((await agent.run('hi')).text).toBe('ok');
    expect(chatSpan()).toEqual({
      ...CALL,
      'gen_ai.response.model': 'm1',
      'gen_ai.response.finish_reasons': ['stop'],
      'footprint.cost.usd': 0,
      'footprint.cost.priced': false,
    });
    const root = sdk.spans().find((span) => span.name === 'invoke_agent helper')!;
    expect([root.attributes['footprint.tokens.input'], root.attributes['footprint.tokens.output'], root.attributes['footprint.llm.calls']]).toEqual([0, 0, 1]);
  });

  it('has neither usage, finish reasons nor cost when the call failed', async () => {
    const failure = new ProviderError({ provider: 'openai', kind: 'http', status: 503, message: 'upstream down', retryable: true });
    const agent = Agent.create({ provider: onServer([{ error: failure }]), model: 'm1', id: 'helper', pricing: PRICING }).build();
    await expect(agent.run('hi')).rejects.toBeInstanceOf(RunFailedError);
    expect(chatSpan()).toEqual({ ...CALL, 'error.type': '503' });
  });
});
