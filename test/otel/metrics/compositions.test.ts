/**
 * Metrics of composed runs with the real compositions and LLM router: an llmSwarm whose router hands
 * the message to its agents, and a Conditional. The router's own model calls are costed to the
 * router, on the route in force where the swarm runs (the router is not routed to); the chosen
 * agent's calls carry the routing path in force ('team>billing'); each routing act counts once, under
 * the composition that dispatched, labelled with the route its chosen member runs under (so cost and
 * decisions join on footprint.route exactly); the run counts once, as the top-level composition.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, Conditional, llmSwarm, scripted } from '../../../src/index.js';
import { METRICS } from '../../../src/otel/metrics/index.js';
import { meteredRuns, only } from '../../support/meter.js';

const PRICING = { 'router-1': { input: 2, output: 4 }, 'agent-1': { input: 1, output: 1 } };
const usage = { input: 100, output: 20 };

function agent(id: string) {
  const provider = scripted({ name: 'scripted', replies: [{ content: `${id} answered`, usage }] });
  return Agent.create({ provider, model: 'agent-1', id, pricing: PRICING }).build();
}

const meter = meteredRuns();

describe('an LLM-routed swarm', () => {
  beforeAll(async () => {
    const team = llmSwarm({
      provider: scripted({
        name: 'router-llm',
        replies: [
          { content: '{"agentId":"billing","message":"Refund order 7"}', usage },
          { content: '{"message":"billing answered"}', usage },
        ],
      }),
      model: 'router-1',
      id: 'team',
      routerId: 'triage',
      pricing: PRICING,
      agents: [
        { id: 'billing', description: 'Invoices and refunds.', runner: agent('billing') },
        { id: 'tech', description: 'Errors and outages.', runner: agent('tech') },
      ],
    });
    expect((await team.run('I was charged twice for order 7')).text).toBe('billing answered');
  });

  it("costs the router's own model calls to the router, on the route in force where the swarm runs", async () => {
    const c = await meter.collect();
    const cost = only(c, METRICS.llmCost.name, { 'gen_ai.request.model': 'router-1' });
    expect(cost.attributes).toEqual({
      'gen_ai.request.model': 'router-1',
      'gen_ai.provider.name': 'router-llm',
      'footprint.agent': 'triage',
    });
    expect(cost.value).toBeCloseTo((2 * (100 * 2 + 20 * 4)) / 1_000_000, 15);
  });

  it("puts the chosen agent's calls on the route team>billing", async () => {
    const c = await meter.collect();
    expect(only(c, METRICS.llmCost.name, { 'footprint.agent': 'billing' }).attributes['footprint.route']).toBe('team>billing');
    expect(only(c, METRICS.tokenUsage.name, { 'footprint.agent': 'billing', 'gen_ai.token.type': 'input' }).attributes['footprint.route']).toBe(
      'team>billing',
    );
    expect(c.series(METRICS.llmCost.name, { 'footprint.agent': 'tech' })).toEqual([]);
  });

  it('counts each routing act once, under the swarm, with the route its chosen member runs under', async () => {
    const c = await meter.collect();
    // two routing acts, two router calls: billing takes the turn, then nobody (the router answers)
    expect(c.series(METRICS.routeDecisions.name).map((s) => [s.attributes, s.value])).toEqual([
      [{ 'footprint.router': 'team', 'footprint.route.chosen': 'team>billing' }, 1],
      [{ 'footprint.router': 'team', 'footprint.route.chosen': 'team>_none' }, 1],
    ]);
  });

  it("joins exactly: a decision's footprint.route.chosen is the footprint.route of its member's cost", async () => {
    const c = await meter.collect();
    const decisionRoutes = c.series(METRICS.routeDecisions.name).map((s) => s.attributes['footprint.route.chosen']);
    const costRoutes = c.series(METRICS.llmCost.name).map((s) => s.attributes['footprint.route']);
    expect(costRoutes.filter((route) => decisionRoutes.includes(route))).toEqual(['team>billing']);
  });

  it('counts the run once, as the top-level swarm', async () => {
    const c = await meter.collect();
    expect(c.series(METRICS.runs.name).map((s) => s.attributes)).toEqual([
      { 'footprint.runner.kind': 'swarm', 'footprint.runner.id': 'team', 'footprint.run.outcome': 'ok' },
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
    expect(only(c, METRICS.routeDecisions.name, { 'footprint.router': 'front' }).attributes['footprint.route.chosen']).toBe('front>refunds');
    expect(only(c, METRICS.llmCost.name, { 'footprint.agent': 'refunds' }).attributes['footprint.route']).toBe('front>refunds');
  });
});
