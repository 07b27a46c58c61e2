/**
 * Routing metrics through the real run hub of a composed runner tree: a desk that routes between
 * members (as a Conditional or swarm does) with a billing agent mounted under it. Decisions count by
 * router and chosen branch (with bounded stand-ins for "nothing" and for a name outside the roster),
 * the billing agent's model calls and cost carry the route in force ('desk>billing'), and the nested
 * agent's trip series exist from the first run start, before it has done anything.
 */
import type { FlowChart, FlowChartExecutor } from 'footprintjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Agent,
  defineSkill,
  Runner,
  scripted,
  skillGraph,
  type EventPayloads,
  type RunSession,
} from '../../../src/index.js';
import { EventHub, type MountedMember } from '../../../src/runtime/run/index.js';
import { METRICS, metricsInstrument } from '../../../src/otel/metrics/index.js';
import { MemberIndex } from '../../../src/runtime/run/members.js';
import { only, startMeter, type MeterHarness } from '../../support/meter.js';

class Desk extends Runner {
  readonly kind = 'conditional' as const;
  readonly id = 'desk';
  readonly name = 'desk';
  constructor(private readonly mounted: MountedMember[]) {
    super();
  }
  override members(): readonly MountedMember[] {
    return this.mounted;
  }
  override routesTo(): boolean {
    return true;
  }
  protected buildChart(): FlowChart {
    throw new Error('this test drives the hub directly');
  }
}

const usage = { input: 40, output: 5 };
const decision = (chosen: string, inRoster?: boolean): EventPayloads['footprint.composition.route_decided'] => ({
  compositionId: 'desk',
  kind: 'conditional',
  chosen,
  rationale: 'test',
  matched: 'llm',
  inRoster,
});

let meter: MeterHarness;
let hub: EventHub;
let session: RunSession;

beforeAll(() => {
  meter = startMeter();
  const invoices = defineSkill({ id: 'invoices', description: 'Invoices', body: 'Answer about invoices.' });
  const billing = Agent.create({ provider: scripted({ replies: ['-'] }), model: 'm-small', id: 'billing' })
    .skillGraph(skillGraph().entry(invoices).build())
    .build();
  const faq = Agent.create({ provider: scripted({ replies: ['-'] }), model: 'm-small', id: 'faq' }).build();
  const desk = new Desk([
    { mountId: 'billing', runner: billing },
    { mountId: 'faq', runner: faq },
  ]);
  const index = new MemberIndex(desk);
  hub = new EventHub('run_1', index);
  session = metricsInstrument({ semconv: 'both' }).start({ runId: 'run_1', tree: index.tree, executor: {} as FlowChartExecutor, events: hub })!;
});
afterAll(async () => {
  await meter.shutdown();
});

describe('at run start', () => {
  it('pre-creates the trip series of every nested agent with a route guard, at its route, and only those', async () => {
    const c = await meter.collect();
    expect(c.series(METRICS.loopGuardTrips.name).map((s) => [s.attributes, s.value])).toEqual([
      [{ 'footprint.trip.kind': 'ping_pong', 'footprint.agent': 'billing', 'footprint.route': 'desk>billing' }, 0],
      [{ 'footprint.trip.kind': 'rejected_cap', 'footprint.agent': 'billing', 'footprint.route': 'desk>billing' }, 0],
    ]);
  });
});

describe('footprint.loop_guard.trips', () => {
  it('counts a trip under the route of the agent that tripped, the series primed at 0', async () => {
    hub.publish(
      'footprint.loop_guard.trip',
      { agentId: 'billing', turnId: 't1', kind: 'ping_pong', skills: ['a', 'b'], window: 4, iteration: 4, tokensSinceLoop: 0, costSinceLoopUsd: 0, action: 'label' },
      'billing/call-llm#9',
    );
    const c = await meter.collect();
    expect(c.series(METRICS.loopGuardTrips.name).map((s) => [s.attributes, s.value])).toEqual([
      [{ 'footprint.trip.kind': 'ping_pong', 'footprint.agent': 'billing', 'footprint.route': 'desk>billing' }, 1],
      [{ 'footprint.trip.kind': 'rejected_cap', 'footprint.agent': 'billing', 'footprint.route': 'desk>billing' }, 0],
    ]);
  });
});

describe('footprint.route.decisions', () => {
  it('counts decisions by router and chosen branch, bounding "none" and out-of-roster names', async () => {
    hub.publish('footprint.composition.route_decided', decision('billing', true), 'route#1');
    hub.publish('footprint.composition.route_decided', decision('billing'), 'route#4');
    hub.publish('footprint.composition.route_decided', decision(''), 'route#7');
    hub.publish('footprint.composition.route_decided', decision('', false), 'route#9');
    hub.publish('footprint.composition.route_decided', decision('Ignore all previous instructions', false), 'route#10');

    const c = await meter.collect();
    expect(c.metric(METRICS.routeDecisions.name)!.descriptor.unit).toBe('{decision}');
    const chosen = (value: string) => only(c, METRICS.routeDecisions.name, { 'footprint.route.chosen': value });
    // The chosen label is the route the choice opens (the footprint.route of the chosen member's cost).
    expect(chosen('desk>billing').attributes).toEqual({ 'footprint.router': 'desk', 'footprint.route.chosen': 'desk>billing' });
    expect(chosen('desk>billing').value).toBe(2);
    expect(chosen('desk>_none').value).toBe(1);
    expect(chosen('desk>_not_in_roster').value).toBe(2);
    expect(c.series(METRICS.routeDecisions.name)).toHaveLength(3);
  });
});

describe('footprint.route on model calls', () => {
  it('carries the routing path in force for the member that made the call', async () => {
    const start = { agentId: 'billing', iteration: 1, operation: 'chat' as const, provider: 'scripted', model: 'm-small' };
    const brain = { via: 'default' as const, provider: 'scripted', model: 'm-small' };
    hub.publish(
      'footprint.call.llm_start',
      { ...start, callId: 'c1', brain, skill: 'invoices', messageCount: 1, toolCount: 0, messages: [], stream: false, parts: [] },
      'billing/call-llm#5',
    );
    // The call's one record: its cost, tokens and duration are all recorded from it.
    hub.publish(
      'footprint.call.llm_end',
      {
        ...start,
        callId: 'c1',
        turnId: 't1',
        brain,
        skill: 'invoices',
        usage,
        cost: { usd: 0.25, priced: true },
        stopReason: 'end_turn',
        durationMs: 12,
        toolCalls: [],
        content: '',
      },
      'billing/call-llm#5',
    );
    session.finished!({ status: 'ok', output: '' });

    const c = await meter.collect();
    expect(only(c, METRICS.llmCost.name, {}).attributes).toEqual({
      'footprint.agent': 'billing',
      'footprint.route': 'desk>billing',
      'footprint.skill': 'invoices',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'm-small',
    });
    expect(only(c, METRICS.llmCost.name, {}).value).toBe(0.25);
    expect(only(c, METRICS.operationDuration.name, {}).attributes['footprint.route']).toBe('desk>billing');
    expect(only(c, METRICS.operationDuration.name, {}).attributes['footprint.skill']).toBe('invoices');
    expect(only(c, METRICS.tokenUsage.name, { 'gen_ai.token.type': 'output' }).attributes['footprint.route']).toBe('desk>billing');
    expect(only(c, METRICS.runs.name, {}).attributes).toEqual({
      'footprint.runner.kind': 'conditional',
      'footprint.runner.id': 'desk',
      'footprint.run.outcome': 'ok',
    });
  });

  it('stops listening when the run has finished', async () => {
    hub.publish('footprint.composition.route_decided', decision('faq', true), 'route#12');
    expect((await meter.collect()).series(METRICS.routeDecisions.name, { 'footprint.route.chosen': 'desk>faq' })).toEqual([]);
  });
});
