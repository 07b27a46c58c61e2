/**
 * Provider fallback, end to end through the real SDK: an agent whose provider (Chat Completions on a
 * 127.0.0.1 server) answers 503 after its own retries falls back to its next provider (Messages on a
 * second server). Two chat spans, the second linked to the first with gen_ai.attribution.link_type
 * RETRY_OF (given at span start), footprint.llm.fallbacks counted once by from/to model, and the
 * run's answer from the second. A failure that is not retryable, and a skill brain's own list, too.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, anthropic, ConfigError, defineSkill, openaiCompatible, registerInstrument, RunFailedError, scripted, skillGraph } from '../../src/index.js';
import { metricsInstrument } from '../../src/otel/metrics/index.js';
import { startMeter } from '../support/meter.js';
import { startSdk } from '../support/sdk.js';
import { wireServerPerTest } from '../runtime/providers/perTest.js';
import { sendJson } from '../runtime/providers/wireServer.js';
import { targets } from '../runtime/providers/targets.js';

const sdk = startSdk();
const meter = startMeter();
const unregister = registerInstrument(metricsInstrument());
afterAll(async () => {
  unregister();
  await meter.shutdown();
  await sdk.shutdown();
});
beforeEach(() => sdk.reset());

const serve = wireServerPerTest();
const anthropicTarget = targets.find((target) => target.label === 'anthropic')!;

describe('fallback to the next provider', () => {
  it('503 after the retries, then a second provider: two chat spans, the RETRY_OF link, the counter, the answer from the second', async () => {
    const failing = await serve((_req, res) => sendJson(res, 503, { error: { message: 'overloaded', type: 'server_error', param: null, code: null } }));
    const answering = await serve((_req, res) => sendJson(res, 200, anthropicTarget.ok));
    const agent = Agent.create({
      id: 'support',
      provider: openaiCompatible({ baseURL: failing.url, maxRetries: 1, retryBaseMs: 1 }),
      model: 'gpt-4o-mini',
      fallbacks: [{ provider: anthropic({ baseURL: answering.url }), model: 'claude-3-5-haiku-20241022' }],
    }).build();

    expect((await agent.run('ping')).text).toBe('pong');

    expect(failing.requests).toHaveLength(2);
    expect(answering.requests).toHaveLength(1);
    const chats = sdk.spans().filter((span) => span.name.startsWith('chat '));
    expect(chats.map((span) => span.name)).toEqual(['chat gpt-4o-mini', 'chat claude-3-5-haiku-20241022']);
    const [first, second] = chats as [(typeof chats)[0], (typeof chats)[0]];
    expect({ provider: first.attributes['gen_ai.provider.name'], error: first.attributes['error.type'], status: first.status.code }).toEqual({
      provider: 'openai',
      error: '503',
      status: 2,
    });
    expect({ provider: second.attributes['gen_ai.provider.name'], error: second.attributes['error.type'], status: second.status.code }).toEqual({
      provider: 'anthropic',
      error: undefined,
      status: 0,
    });
    expect(first.links).toEqual([]);
    expect(second.links).toEqual([{ context: first.spanContext(), attributes: { 'gen_ai.attribution.link_type': 'RETRY_OF' } }]);
    expect(second.parentSpanContext?.spanId).toBe(first.parentSpanContext?.spanId);

    const fallbacks = (await meter.collect()).series('footprint.llm.fallbacks');
    expect(fallbacks.map(({ attributes, value }) => ({ attributes, value }))).toEqual([
      {
        attributes: { 'footprint.fallback.from_model': 'gpt-4o-mini', 'footprint.fallback.to_model': 'claude-3-5-haiku-20241022', 'footprint.agent': 'support' },
        value: 1,
      },
    ]);
  });

  it('a failure that is not retryable (400) is not tried on the next provider', async () => {
    const failing = await serve((_req, res) => sendJson(res, 400, { error: { message: 'bad', type: 'invalid_request_error', param: null, code: null } }));
    const next = scripted({ replies: ['never'] });
    const agent = Agent.create({ id: 'strict', provider: openaiCompatible({ baseURL: failing.url }), model: 'm1', fallbacks: [{ provider: next, model: 'm2' }] }).build();
    await expect(agent.run('ping')).rejects.toBeInstanceOf(RunFailedError);
    expect(next.calls).toHaveLength(0);
    expect(sdk.spans().filter((span) => span.name.startsWith('chat ')).map((span) => span.name)).toEqual(['chat m1']);
  });

  it('each fallback in order until one answers; a streamed run falls back the same way before any chunk', async () => {
    const busy = await serve((_req, res) => sendJson(res, 429, { error: { message: 'slow down', type: 'rate_limit_error', param: null, code: null } }));
    const alsoBusy = await serve((_req, res) => sendJson(res, 529, anthropicTarget.errorBody('overloaded_error', 'Overloaded')));
    const last = scripted({ replies: ['third time'] });
    const agent = Agent.create({
      id: 'chain',
      provider: openaiCompatible({ baseURL: busy.url, maxRetries: 0 }),
      model: 'a',
      fallbacks: [
        { provider: anthropic({ baseURL: alsoBusy.url, maxRetries: 0 }), model: 'b' },
        { provider: last, model: 'c' },
      ],
    }).build();
    const stream = agent.stream('ping');
    for await (const part of stream) void part;
    expect((await stream.result).text).toBe('third time');
    const chats = sdk.spans().filter((span) => span.name.startsWith('chat '));
    expect(chats.map((span) => [span.name, span.links.map((link) => link.context.spanId)])).toEqual([
      ['chat a', []],
      ['chat b', [chats[0]!.spanContext().spanId]],
      ['chat c', [chats[1]!.spanContext().spanId]],
    ]);
  });

  it("a skill brain's own fallbacks serve that skill's calls", async () => {
    const failing = await serve((_req, res) => sendJson(res, 503, { error: { message: 'down', type: 'server_error', param: null, code: null } }));
    const agentsOwn = scripted({ name: 'agent-fallback', replies: ['from the agent list'] });
    const skillsOwn = scripted({ name: 'skill-fallback', replies: ['from the skill list'] });
    const graph = skillGraph().entry(defineSkill({ id: 'triage', description: 'Sort the report', body: 'Decide.' })).build();
    const agent = Agent.create({ id: 'desk', provider: scripted({ replies: ['unused'] }), model: 'm0', fallbacks: [{ provider: agentsOwn, model: 'm1' }] })
      .skillGraph(graph, { providers: { triage: { provider: openaiCompatible({ baseURL: failing.url, maxRetries: 0 }), model: 'triage-1', fallbacks: [{ provider: skillsOwn, model: 'triage-2' }] } } })
      .build();
    expect((await agent.run('ping')).text).toBe('from the skill list');
    expect({ agentList: agentsOwn.calls.length, skillList: skillsOwn.calls.length }).toEqual({ agentList: 0, skillList: 1 });
  });

  it('fallbacks are checked when the agent is built', () => {
    const provider = scripted({ replies: ['x'] });
    const error = (() => {
      try {
        Agent.create({ provider, model: 'm', fallbacks: [{ provider, model: '' }] }).build();
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect({ message: (error as ConfigError).message, field: (error as ConfigError).field }).toEqual({ message: 'agent "agent": fallbacks[0] needs a provider and a model', field: 'fallbacks' });
  });
});
