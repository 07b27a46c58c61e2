/**
 * Skill-graph metrics from scripted runs with the real route recorder: trip counters exist at 0 for
 * every kind before any trip (so the first trip is visible to increase()), a ping-pong and a
 * rejected-cap trip each count once, and rejections and escalations carry the agent and the skill
 * the cursor was in. Model calls inside a skill carry that skill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, isPaused, registerInstrument, scripted, skillGraph, type Tool } from '../../../src/index.js';
import { METRICS, metricsInstrument } from '../../../src/otel/metrics/index.js';
import { answer, diagnoseSkill, fixSkill, pick, PRICING, triageSkill, usdOf, USAGE } from '../../support/skills.js';
import { only, startMeter, type MeterHarness } from '../../support/meter.js';

const triage = triageSkill();
const diagnose = diagnoseSkill();
const fix = fixSkill();
const graph = skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, triage).edge(diagnose, fix).build();

/** A top-level agent runs under no routing composition: its trips carry no footprint.route. */
const trip = (kind: string, agent: string) => ({ 'footprint.trip.kind': kind, 'footprint.agent': agent });

let meter: MeterHarness;
let unregister: () => void;

beforeAll(() => {
  meter = startMeter();
  unregister = registerInstrument(metricsInstrument({ semconv: 'both' }));
});
afterAll(async () => {
  unregister();
  await meter.shutdown();
});

describe('footprint.loop_guard.trips', () => {
  it('exists at 0 for every kind of an agent with a skill graph before it ever trips', async () => {
    const calm = Agent.create({ provider: scripted({ replies: [answer('fine')] }), model: 'small-1', id: 'calm' })
      .skillGraph(graph)
      .build();
    const plain = Agent.create({ provider: scripted({ replies: ['fine'] }), model: 'small-1', id: 'plain' }).build();
    await calm.run('ok?');
    await plain.run('ok?');

    const c = await meter.collect();
    expect(c.metric(METRICS.loopGuardTrips.name)!.descriptor.unit).toBe('{trip}');
    expect(c.series(METRICS.loopGuardTrips.name).map((s) => [s.attributes, s.value])).toEqual([
      [trip('ping_pong', 'calm'), 0],
      [trip('rejected_cap', 'calm'), 0],
    ]);
  });

  it('counts a ping-pong once, next to the untouched rejected_cap series', async () => {
    const replies = [pick('diagnose'), pick('triage'), pick('diagnose'), pick('triage'), pick('diagnose'), answer('done')];
    const agent = Agent.create({ provider: scripted({ replies }), model: 'small-1', id: 'desk', maxIterations: 10 })
      .skillGraph(graph, { pingPongWindow: 4 })
      .build();
    await agent.run('The link flaps.');

    const c = await meter.collect();
    expect(only(c, METRICS.loopGuardTrips.name, trip('ping_pong', 'desk')).value).toBe(1);
    expect(only(c, METRICS.loopGuardTrips.name, trip('rejected_cap', 'desk')).value).toBe(0);
  });
  it("is counted once under each name in the both mode (footprint.route.trips is the v1.41 mode's name)", async () => {
    const c = await meter.collect();
    const series = (name: string) => c.series(name).map((s) => [s.attributes, s.value]);
    expect(series(METRICS.routeTrips.name)).toEqual(series(METRICS.loopGuardTrips.name));
    expect(series(METRICS.routeTrips.name)).toEqual([
      [trip('ping_pong', 'calm'), 0],
      [trip('rejected_cap', 'calm'), 0],
      [trip('ping_pong', 'desk'), 1],
      [trip('rejected_cap', 'desk'), 0],
    ]);
  });
});

describe('rejections, escalations and a rejected-cap trip', () => {
  beforeAll(async () => {
    const small = scripted({ name: 'small', replies: [pick('fix'), pick('fix')] });
    const strong = scripted({ name: 'strong', replies: [answer('Escalated answer.')] });
    const agent = Agent.create({ provider: small, model: 'small-1', id: 'helpdesk', pricing: PRICING })
      .skillGraph(graph, { escalation: { provider: strong, model: 'strong-1', afterRefusals: 2 }, maxRejectedRetries: 2 })
      .build();
    expect((await agent.run('Fix it now.')).text).toBe('Escalated answer.');
  });

  it('counts each refused read_skill under the skill the cursor was in', async () => {
    const c = await meter.collect();
    expect(c.metric(METRICS.skillRejections.name)!.descriptor.unit).toBe('{rejection}');
    const rejections = only(c, METRICS.skillRejections.name, { 'footprint.agent': 'helpdesk' });
    expect(rejections.attributes).toEqual({ 'footprint.agent': 'helpdesk', 'footprint.skill': 'triage' });
    expect(rejections.value).toBe(2);
  });

  it('counts the escalation once, under the skill it happened in', async () => {
    const c = await meter.collect();
    expect(c.metric(METRICS.skillEscalations.name)!.descriptor.unit).toBe('{escalation}');
    const escalations = only(c, METRICS.skillEscalations.name, { 'footprint.agent': 'helpdesk' });
    expect(escalations.attributes).toEqual({ 'footprint.agent': 'helpdesk', 'footprint.skill': 'triage' });
    expect(escalations.value).toBe(1);
  });

  it('counts the rejected-cap trip', async () => {
    const c = await meter.collect();
    expect(only(c, METRICS.loopGuardTrips.name, trip('rejected_cap', 'helpdesk')).value).toBe(1);
    expect(only(c, METRICS.loopGuardTrips.name, trip('ping_pong', 'helpdesk')).value).toBe(0);
  });

  it('attributes model calls and their cost to the skill and the brain that served them', async () => {
    const c = await meter.collect();
    const byModel = (model: string) =>
      only(c, METRICS.llmCost.name, { 'footprint.agent': 'helpdesk', 'gen_ai.request.model': model });
    expect(byModel('small-1').attributes).toEqual({
      'footprint.agent': 'helpdesk',
      'footprint.skill': 'triage',
      'gen_ai.provider.name': 'small',
      'gen_ai.request.model': 'small-1',
    });
    expect(byModel('small-1').value).toBeCloseTo(usdOf('small-1', 2), 15);
    expect(byModel('strong-1').attributes).toEqual({
      'footprint.agent': 'helpdesk',
      'footprint.skill': 'triage',
      'gen_ai.provider.name': 'strong',
      'gen_ai.request.model': 'strong-1',
    });
    expect(byModel('strong-1').value).toBeCloseTo(usdOf('strong-1', 1), 15);
    const tokens = only(c, METRICS.tokenUsage.name, {
      'footprint.agent': 'helpdesk',
      'gen_ai.request.model': 'strong-1',
      'gen_ai.token.type': 'input',
    });
    expect(tokens.attributes['footprint.skill']).toBe('triage');
  });
});

describe('an escalation in a resumed run', () => {
  const ask: Tool = {
    name: 'ask_human',
    description: 'Ask the on-call engineer',
    inputSchema: { type: 'object' },
    execute: async (_args, ctx) => `engineer says: ${String(await ctx.pause('May I?'))}`,
  };
  /** The resumer agent, escalating after 2 refusals; its small model asks what `replies` say. */
  const resumer = (replies: Parameters<typeof scripted>[0]['replies']) =>
    Agent.create({ provider: scripted({ name: 'small', replies }), model: 'small-1', id: 'resumer', pricing: PRICING })
      .tool(ask)
      .skillGraph(graph, { escalation: { provider: scripted({ name: 'strong', replies: [answer('Escalated after the pause.')] }), model: 'strong-1', afterRefusals: 2 } })
      .build();

  it('is counted under the skill the cursor was in, though the refusals came before the pause', async () => {
    // Two refusals and a question in one reply: the run pauses; the threshold is checked as the iteration finishes, after the resume.
    const refusingThenAsking = { toolCalls: [{ name: 'read_skill', args: { id: 'fix' } }, { name: 'read_skill', args: { id: 'fix' } }, { name: 'ask_human', args: {} }], usage: USAGE };
    const paused = await resumer([refusingThenAsking]).run('Fix it now.');
    if (!isPaused(paused)) throw new Error('expected the run to pause');
    const checkpoint = JSON.parse(JSON.stringify(paused.paused.checkpoint));
    expect((await resumer([]).resume(checkpoint, 'yes')).text).toBe('Escalated after the pause.');

    const c = await meter.collect();
    expect(only(c, METRICS.skillRejections.name, { 'footprint.agent': 'resumer' })).toEqual({
      attributes: { 'footprint.agent': 'resumer', 'footprint.skill': 'triage' },
      value: 2,
    });
    expect(only(c, METRICS.skillEscalations.name, { 'footprint.agent': 'resumer' })).toEqual({
      attributes: { 'footprint.agent': 'resumer', 'footprint.skill': 'triage' },
      value: 1,
    });
  });
});
