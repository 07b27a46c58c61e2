/**
 * One model-call record: every call (answered or failed) is one footprint.call.llm_end carrying its
 * usage, cost, skill, brain and turn, and every total of calls is made of those records the same way
 * (events/modelCalls.ts). So the run span, the metrics and the demo summary agree on the number of
 * calls, the tokens and the cost of a run with a failed call and a call that reported no usage; no
 * other event repeats a call's usage or cost.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, Parallel, scripted, type TypedEvent } from '../../src/index.js';
import { emptySummary, summarize } from '../../src/cli/summary.js';
import { METRICS } from '../../src/otel/metrics/index.js';
import { meteredRuns } from '../support/meter.js';
import { startSdk, type Sdk } from '../support/sdk.js';

let sdk: Sdk;
const meter = meteredRuns();

beforeAll(() => {
  sdk = startSdk();
});
afterEach(() => sdk.reset());
afterAll(() => sdk.shutdown());

const pricing = { 'record-model': { input: 1, output: 2 } };
/** $ per call of the priced agent: 100 input tokens at $1/M, 20 output at $2/M. */
const PRICED_USD = (100 * 1 + 20 * 2) / 1e6;

/**
 * Three branches: one call with usage, one that fails, one whose provider reports no usage. Each test
 * gives its agents ids of their own (`ids`), since metrics add up over the file's runs.
 */
function panel(ids: { priced: string; broken: string; silent: string } = { priced: 'priced', broken: 'broken', silent: 'silent' }) {
  const agent = (id: string, reply: Parameters<typeof scripted>[0]['replies']) =>
    Agent.create({ provider: scripted({ replies: reply }), model: 'record-model', id, pricing }).build();
  return Parallel.create({ id: 'record-panel' })
    .branch('priced', agent(ids.priced, [{ content: 'p', usage: { input: 100, output: 20 } }]))
    .branch('broken', agent(ids.broken, [{ error: new Error('model is down') }]))
    .branch('silent', agent(ids.silent, [{ content: 's', usage: null }]))
    .merge((results) => results.map((r) => r.status).join(','))
    .build();
}

describe('one model-call record', () => {
  it('is one llm_end per call, answered or failed, with usage, cost, skill, brain and turn', async () => {
    const runner = panel();
    const ends: TypedEvent<'footprint.call.llm_end'>[] = [];
    const types: string[] = [];
    runner.on('footprint.call.llm_end', (e) => ends.push(e));
    runner.on('*', (e) => types.push(e.type));
    expect((await runner.run('q')).text).toBe('ok,error,ok');

    const byAgent = Object.fromEntries(ends.map((e) => [e.payload.agentId, e.payload]));
    expect(ends).toHaveLength(3);
    const brain = { via: 'default', provider: 'scripted', model: 'record-model' };
    expect(byAgent.priced).toMatchObject({ operation: 'chat', brain, usage: { input: 100, output: 20 }, cost: { usd: PRICED_USD, priced: true } });
    expect(byAgent.silent).toMatchObject({ operation: 'chat', brain, cost: { usd: 0, priced: false } });
    expect('usage' in byAgent.silent!).toBe(false);
    expect(byAgent.broken).toMatchObject({ operation: 'chat', brain, cost: { usd: 0, priced: false }, error: { message: 'Error: model is down' } });
    expect('usage' in byAgent.broken!).toBe(false);
    for (const end of ends) expect(end.payload.turnId).toMatch(/^turn/);
    for (const end of ends) expect(end.payload.skill).toBeUndefined();

    // The record is the only one: no second event repeats a call's usage or cost (the former footprint.cost.tick).
    expect(types.filter((type) => type.startsWith('footprint.cost.'))).toEqual([]);
    expect(types.filter((type) => type === 'footprint.call.llm_end')).toHaveLength(3);
  });

  it('adds up the same on the run span, in the metrics and in the demo summary, failed call and unknown usage included', async () => {
    const runner = panel({ priced: 'priced-2', broken: 'broken-2', silent: 'silent-2' });
    const summary = emptySummary();
    const stop = summarize(runner, summary);
    await runner.run('q');
    stop();

    const root = sdk.spans().find((s) => s.parentSpanContext === undefined)!;
    const collected = await meter.collect();
    const ofPanel = (name: string, match = {}) =>
      collected.series(name, match).filter((s) => ['priced-2', 'broken-2', 'silent-2'].includes(String(s.attributes['footprint.agent'])));
    const histogramCount = (name: string) => ofPanel(name).reduce((n, s) => n + (s.histogram?.count ?? 0), 0);
    const tokens = (type: string) => ofPanel(METRICS.tokenUsage.name, { 'gen_ai.token.type': type }).reduce((n, s) => n + s.value, 0);
    const cost = ofPanel(METRICS.llmCost.name).reduce((n, s) => n + s.value, 0);

    const everywhere = { llmCalls: 3, input: 100, output: 20, costUsd: PRICED_USD };
    expect({
      llmCalls: root.attributes['footprint.llm.calls'],
      input: root.attributes['footprint.tokens.input'],
      output: root.attributes['footprint.tokens.output'],
      costUsd: root.attributes['footprint.cost.usd'],
    }).toEqual(everywhere);
    expect({ llmCalls: histogramCount(METRICS.operationDuration.name), input: tokens('input'), output: tokens('output'), costUsd: cost }).toEqual(everywhere);
    expect({ llmCalls: summary.llmCalls, input: summary.tokens.input, output: summary.tokens.output, costUsd: summary.costUsd }).toEqual(everywhere);
    // A call without usage records no token series of its own (an unknown count is no count).
    expect(ofPanel(METRICS.tokenUsage.name).map((s) => s.attributes['footprint.agent'])).toEqual(['priced-2', 'priced-2']);
    // The chat spans: one per call, the cost on every answered one.
    const chats = sdk.spans().filter((s) => s.name === 'chat record-model');
    expect(chats.map((s) => [s.attributes['footprint.agent'], s.attributes['footprint.cost.usd'], s.attributes['footprint.cost.priced']]).sort()).toEqual([
      ['broken-2', undefined, undefined],
      ['priced-2', PRICED_USD, true],
      ['silent-2', 0, false],
    ]);
    // Calls with no routing composition above them: the empty route in the summary; in the metrics no
    // footprint.route at all, which PromQL groups as the same empty value.
    expect(Object.keys(summary.costByRoute)).toEqual(['']);
    expect(ofPanel(METRICS.llmCost.name).map((s) => Object.hasOwn(s.attributes, 'footprint.route'))).toEqual([false, false]);
  });
});
