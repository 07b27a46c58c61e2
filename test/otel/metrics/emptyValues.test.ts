/**
 * No data point of any metric carries an attribute whose value is '': a value that is not there
 * (the route of a call no composition routed to, the skill of an agent without a skill graph) is left
 * out of the point. A Thanos receiver refuses, with HTTP 409, a whole write that holds a series with
 * an empty label value, so one such point would lose every other point of its export. The runs here
 * make every kind of '' the recorder knows: an LLM-routed swarm (the router's own calls run on no
 * route and in no skill) whose chosen member has a skill graph and ping-pongs (trip series primed at
 * 0 and counted), and a top-level agent with a skill graph (its trip series primed on no route).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, llmSwarm, scripted, skillGraph } from '../../../src/index.js';
import { METRICS } from '../../../src/otel/metrics/index.js';
import { answer, diagnoseSkill, fixSkill, pick, PRICING, triageSkill, USAGE } from '../../support/skills.js';
import { meteredRuns, only } from '../../support/meter.js';

const triage = triageSkill();
const diagnose = diagnoseSkill();
const graph = skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, triage).edge(diagnose, fixSkill()).build();

const meter = meteredRuns();

beforeAll(async () => {
  const pingPong = [pick('diagnose'), pick('triage'), pick('diagnose'), pick('triage'), pick('diagnose'), answer('done')];
  const desk = Agent.create({ provider: scripted({ replies: pingPong }), model: 'small-1', id: 'desk', maxIterations: 10, pricing: PRICING })
    .skillGraph(graph, { pingPongWindow: 4 })
    .build();
  const team = llmSwarm({
    provider: scripted({
      name: 'router-llm',
      replies: [
        { content: '{"agentId":"desk","message":"The link flaps"}', usage: USAGE },
        { content: '{"message":"done"}', usage: USAGE },
      ],
    }),
    model: 'small-1',
    id: 'team',
    routerId: 'triage-router',
    pricing: PRICING,
    agents: [{ id: 'desk', description: 'Network faults.', runner: desk }],
  });
  expect((await team.run('The link flaps.')).text).toBe('done');

  const solo = Agent.create({ provider: scripted({ replies: [answer('fine')] }), model: 'small-1', id: 'solo', pricing: PRICING })
    .skillGraph(graph)
    .build();
  expect((await solo.run('ok?')).text).toBe('fine');
});

describe('metric attribute values', () => {
  it('are never the empty string, on any point of any metric', async () => {
    const c = await meter.collect();
    const empty = c.names().flatMap((name) =>
      c.series(name).flatMap((s) => Object.keys(s.attributes).filter((key) => s.attributes[key] === '').map((key) => `${name} ${key}`)),
    );
    expect(empty).toEqual([]);
  });

  it("leave footprint.route and footprint.skill out of the router's own calls", async () => {
    const c = await meter.collect();
    expect(only(c, METRICS.llmCost.name, { 'footprint.agent': 'triage-router' }).attributes).toEqual({
      'gen_ai.request.model': 'small-1',
      'gen_ai.provider.name': 'router-llm',
      'footprint.agent': 'triage-router',
    });
  });

  it('leave footprint.route out of the trip series of an agent on no route, primed and counted alike', async () => {
    const c = await meter.collect();
    expect(c.series(METRICS.loopGuardTrips.name).map((s) => [s.attributes, s.value])).toEqual([
      [{ 'footprint.trip.kind': 'ping_pong', 'footprint.agent': 'desk', 'footprint.route': 'team>desk' }, 1],
      [{ 'footprint.trip.kind': 'rejected_cap', 'footprint.agent': 'desk', 'footprint.route': 'team>desk' }, 0],
      [{ 'footprint.trip.kind': 'ping_pong', 'footprint.agent': 'solo' }, 0],
      [{ 'footprint.trip.kind': 'rejected_cap', 'footprint.agent': 'solo' }, 0],
    ]);
  });
});
