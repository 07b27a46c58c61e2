/**
 * Metrics of composed runs with the real compositions and LLM router: a desk whose llmRouter step
 * hands the message to a swarm of agents, and a Conditional. The router's own model call is costed
 * to the router; the chosen agent's calls carry the routing path in force ('team>billing'); every
 * routing decision counts under its router with the branch it chose; the run counts once, as the
 * top-level composition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, Conditional, llmRouter, registerInstrument, scripted, Sequence, swarm } from '../../src/index.js';
import { METRICS, metricsInstrument } from '../../src/otel/metrics/index.js';
import { only, startMeter, type MeterHarness } from './harness.js';

const PRICING = { 'router-1': { input: 2, output: 4 }, 'agent-1': { input: 1, output: 1 } };
const usage = { input: 100, output: 20 };

function agent(id: string) {
  const provider = scripted({ name: 'scripted', replies: [{ content: `${id} answered`, usage }] });
  return Agent.create({ provider, model: 'agent-1', id, pricing: PRICING }).build();
}

let meter: MeterHarness;
let unregister: () => void;

beforeAll(() => {
  meter = startMeter();
  unregister = registerInstrument(metricsInstrument());
});
afterAll(async () => {
  unregister();
  await meter.shutdown();
});

describe('an LLM router in front of a swarm', () => {
  beforeAll(async () => {
    const router = llmRouter({
      provider: scripted({ name: 'router-llm', replies: [{ content: '{"agentId":"billing","message":"Refund order 7"}', usage }] }),
      model: 'router-1',
      id: 'triage',
      pricing: PRICING,
      agents: [
        { id: 'billing', description: 'Invoices and refunds.' },
        { id: 'tech', description: 'Errors and outages.' },
      ],
    });
    const team = swarm({ id: 'team', agents: [{ id: 'billing', runner: agent('billing') }, { id: 'tech', runner: agent('tech') }], route: router.route });
    const desk = Sequence.create({ id: 'desk' }).step('triage', router.step).step('team', team).build();
    expect(await desk.run('I was charged twice for order 7')).toBe('billing answered');
  });

  it("costs the router's own model call to the router", async () => {
    const c = await meter.collect();
    const cost = only(c, METRICS.llmCost.name, { 'gen_ai.request.model': 'router-1' });
    expect(cost.attributes).toEqual({
      'gen_ai.request.model': 'router-1',
      'gen_ai.provider.name': 'router-llm',
      'footprint.agent': 'triage',
      'footprint.skill': '',
      'footprint.route': '',
    });
    expect(cost.value).toBeCloseTo((100 * 2 + 20 * 4) / 1_000_000, 15);
  });

  it("puts the chosen agent's calls on the route team>billing", async () => {
    const c = await meter.collect();
    expect(only(c, METRICS.llmCost.name, { 'footprint.agent': 'billing' }).attributes['footprint.route']).toBe('team>billing');
    expect(only(c, METRICS.tokenUsage.name, { 'footprint.agent': 'billing', 'gen_ai.token.type': 'input' }).attributes['footprint.route']).toBe(
      'team>billing',
    );
    expect(c.series(METRICS.llmCost.name, { 'footprint.agent': 'tech' })).toEqual([]);
  });

  it('counts each decision under its router, by chosen branch', async () => {
    const c = await meter.collect();
    const decisions = c.series(METRICS.routeDecisions.name).map((s) => [s.attributes['footprint.router'], s.attributes['footprint.route.chosen'], s.value]);
    // the swarm decides twice: billing takes the turn, then nobody (billing's answer is final)
    expect(decisions).toEqual([
      ['triage', 'billing', 1],
      ['team', 'billing', 1],
      ['team', '_none', 1],
    ]);
  });

  it('counts the run once, as the top-level sequence', async () => {
    const c = await meter.collect();
    expect(c.series(METRICS.runs.name).map((s) => s.attributes)).toEqual([
      { 'footprint.runner.kind': 'sequence', 'footprint.runner.id': 'desk', 'footprint.run.outcome': 'ok' },
    ]);
  });
});

describe('a Conditional', () => {
  it('routes by predicate and tags the branch taken', async () => {
    const desk = Conditional.create({ id: 'front' })
      .when('refunds', ({ message }) => /refund/i.test(message), agent('refunds'))
      .otherwise('general', agent('general'))
      .build();
    await desk.run('Please refund me');
    const c = await meter.collect();
    expect(only(c, METRICS.routeDecisions.name, { 'footprint.router': 'front' }).attributes['footprint.route.chosen']).toBe('refunds');
    expect(only(c, METRICS.llmCost.name, { 'footprint.agent': 'refunds' }).attributes['footprint.route']).toBe('front>refunds');
  });
});
