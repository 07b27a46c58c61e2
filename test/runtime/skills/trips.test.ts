/**
 * Loop guards in scripted runs: a ping-pong trips once per alternating streak and again only after
 * the alternation broke; a run of five rejections trips exactly once and re-arms when the cursor
 * moves; onTrip 'stop' ends the turn stopped early and 'escalate' moves it to the escalation brain.
 * Trips are emitted as events at the stage that detected them, with the spend since the loop began.
 */
import { describe, expect, it } from 'vitest';
import { Agent, scripted, skillGraph, type ScriptedReply, type SkillGraph, type Tool } from '../../../src/index.js';
import { skillPathRecorder } from '../../../src/recorders/index.js';
import { answer, CALL_TOKENS, callTool, diagnoseSkill, escalatedToStrong, fixSkill, labelledPingPongTrip, labelledRejectionTrip, pick, PRICING, record, triageSkill, usdOf } from '../../support/skills.js';

const triage = triageSkill();
const diagnose = diagnoseSkill();
const fix = fixSkill();
const probe = {
  name: 'probe',
  description: 'Look at the device',
  inputSchema: { type: 'object' },
  execute: () => 'all lights green',
};

/** The desk agent on the small model, walking `graph` with a route recorder, and its event log. */
function recordedDesk(options: { graph: SkillGraph; replies: ScriptedReply[]; maxIterations: number; tools?: Tool[] }) {
  const recorder = skillPathRecorder({ agentId: 'desk' });
  const provider = scripted({ name: 'small', replies: options.replies });
  const builder = Agent.create({ provider, model: 'small-1', id: 'desk', maxIterations: options.maxIterations, pricing: PRICING });
  for (const tool of options.tools ?? []) builder.tool(tool);
  const agent = builder.skillGraph(options.graph, { skillPathRecorder: recorder }).build();
  return { agent, recorder, log: record(agent) };
}

describe('ping-pong', () => {
  const graph = skillGraph()
    .entry(triage)
    .edge(triage, diagnose)
    .edge(diagnose, triage)
    .edge(diagnose, fix)
    .edge(fix, diagnose)
    .build();

  it('trips once per alternating streak, at the hop that completed the window, and again after a break', async () => {
    const replies: ScriptedReply[] = [
      pick('diagnose'), // hop at 2: triage -> diagnose (streak starts; 1 call spent)
      pick('triage'), // 3: diagnose -> triage
      callTool('probe'), // 4: stay (not a transition, the streak goes on)
      pick('diagnose'), // 5: triage -> diagnose
      pick('triage'), // 6: diagnose -> triage — 4 alternating transitions: trip
      pick('diagnose'), // 7
      pick('triage'), // 8
      pick('diagnose'), // 9 — still the same streak: no second trip
      pick('fix'), // 10: diagnose -> fix breaks the alternation (new streak; 9 calls spent)
      pick('diagnose'), // 11
      pick('fix'), // 12
      pick('diagnose'), // 13: 4 alternating transitions between diagnose and fix: trip
      answer('Gave up looping.'),
    ];
    const { agent, recorder, log } = recordedDesk({ graph, replies, maxIterations: 20, tools: [probe] });

    expect((await agent.run('The link flaps.')).text).toBe('Gave up looping.');
    const turnId = log.of('footprint.agent.turn_start')[0]!.turnId;
    const trips = log.events('footprint.loop_guard.trip');
    expect(trips.map((t) => t.payload)).toEqual([
      labelledPingPongTrip({ turnId, skills: ['triage', 'diagnose'], iteration: 6, calls: 4 }),
      labelledPingPongTrip({ turnId, skills: ['diagnose', 'fix'], iteration: 13, calls: 3 }),
    ]);
    // Emitted at the stage of the hop that completed the window, the moment it happened.
    const hops = log.events('footprint.skill.hop');
    const at6 = hops.find((h) => h.payload.iteration === 6)!;
    expect(trips[0]!.meta.runtimeStageId).toBe(at6.meta.runtimeStageId);
    expect(trips[0]!.meta.agentId).toBe('desk');
    expect(trips[0]!.meta.timestamp).toBeGreaterThanOrEqual(at6.meta.timestamp);
    const llmAt6 = log.events('footprint.call.llm_start').find((e) => e.payload.iteration === 6)!;
    expect(trips[0]!.meta.timestamp).toBeLessThan(llmAt6.meta.timestamp);
    // Label only: the turn went on and answered.
    expect(log.of('footprint.agent.turn_end')[0]).toMatchObject({ outcome: 'ok', iterations: 13 });
    expect(log.of('footprint.skill.escalated')).toEqual([]);

    expect(recorder.getTrips().map(({ runtimeStageId, ...payload }) => [runtimeStageId, payload])).toEqual(
      trips.map((t) => [t.meta.runtimeStageId, t.payload]),
    );
    expect(recorder.getPath()).toEqual([
      'triage', 'diagnose', 'triage', 'diagnose', 'triage', 'diagnose', 'triage', 'diagnose',
      'fix', 'diagnose', 'fix', 'diagnose',
    ]);
    expect(recorder.getHops().filter((h) => h.cause === 'stay').map((h) => h.iteration)).toEqual([4]);
  });

  it("onTrip 'escalate': the same iteration's call runs on the escalation brain", async () => {
    const small = scripted({ name: 'small', replies: [pick('diagnose'), pick('triage')] });
    const strong = scripted({ name: 'strong', replies: [answer('Escalated: replace the switch.')] });
    const agent = Agent.create({ provider: small, model: 'small-1', id: 'desk', pricing: PRICING })
      .skillGraph(graph, {
        pingPongWindow: 2,
        onTrip: 'escalate',
        escalation: { provider: strong, model: 'strong-1', afterRefusals: 3 },
      })
      .build();
    const log = record(agent);

    expect((await agent.run('The link flaps.')).text).toBe('Escalated: replace the switch.');
    expect(log.of('footprint.loop_guard.trip')).toMatchObject([
      { kind: 'ping_pong', skills: ['triage', 'diagnose'], window: 2, iteration: 3, action: 'escalate' },
    ]);
    expect(log.of('footprint.loop_guard.trip')[0]!.tokensSinceLoop).toBe(CALL_TOKENS);
    expect(log.of('footprint.skill.escalated')).toEqual([escalatedToStrong({ refusals: 0, reason: 'loop_guard', iteration: 3 })]);
    expect(log.of('footprint.call.llm_start').map((e) => [e.iteration, e.brain.via, e.provider, e.model])).toEqual([
      [1, 'default', 'small', 'small-1'],
      [2, 'default', 'small', 'small-1'],
      [3, 'escalation', 'strong', 'strong-1'],
    ]);
    expect([small.calls.length, strong.calls.length]).toEqual([2, 1]);
    expect(log.of('footprint.call.llm_end')[2]).toMatchObject({ skill: 'triage', brain: { via: 'escalation' }, cost: { usd: usdOf('strong-1') } });
  });
});

describe('rejected cap', () => {
  const graph = skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, fix).build();

  it('trips exactly once for a run of five rejections, and re-arms when the cursor moves', async () => {
    const replies: ScriptedReply[] = [
      pick('diagnose'), // 1: triage, accepted
      pick('triage'), // 2: diagnose, rejected (1; 2 calls spent)
      pick('triage'), // 3: rejected (2)
      pick('nope'), // 4: rejected (3): trip
      pick('triage'), // 5: rejected (4)
      pick('triage'), // 6: rejected (5)
      pick('fix'), // 7: accepted, the cursor moves at 8 and the guard re-arms
      pick('diagnose'), // 8: fix has no way out: rejected (1)
      pick('triage'), // 9: rejected (2)
      pick('triage'), // 10: rejected (3): second trip
      answer('Replace the optic.'),
    ];
    const { agent, recorder, log } = recordedDesk({ graph, replies, maxIterations: 15 });

    expect((await agent.run('No light on port 9.')).text).toBe('Replace the optic.');
    const turnId = log.of('footprint.agent.turn_start')[0]!.turnId;
    const rejected = log.of('footprint.skill.rejected');
    expect(rejected.map((r) => [r.iteration, r.requested, r.current, r.allowed])).toEqual([
      [2, 'triage', 'diagnose', ['fix']],
      [3, 'triage', 'diagnose', ['fix']],
      [4, 'nope', 'diagnose', ['fix']],
      [5, 'triage', 'diagnose', ['fix']],
      [6, 'triage', 'diagnose', ['fix']],
      [8, 'diagnose', 'fix', []],
      [9, 'triage', 'fix', []],
      [10, 'triage', 'fix', []],
    ]);
    expect(rejected.every((r) => r.turnId === turnId && r.agentId === 'desk')).toBe(true);
    const trips = log.events('footprint.loop_guard.trip');
    expect(trips.map((t) => t.payload)).toEqual([
      labelledRejectionTrip({ turnId, skill: 'diagnose', iteration: 4, model: 'small-1' }),
      labelledRejectionTrip({ turnId, skill: 'fix', iteration: 10, model: 'small-1' }),
    ]);
    // At the ToolCalls stage whose third rejection tripped it.
    const third = log.events('footprint.skill.rejected')[2]!;
    expect(trips[0]!.meta.runtimeStageId).toBe(third.meta.runtimeStageId);
    expect(third.meta.runtimeStageId).toMatch(/^tool-calls#/);

    expect(recorder.getRejections().map((r) => r.requested)).toEqual(rejected.map((r) => r.requested));
    expect(recorder.getTrips().map((t) => [t.kind, t.iteration])).toEqual([
      ['rejected_cap', 4],
      ['rejected_cap', 10],
    ]);
    expect(recorder.getPath()).toEqual(['triage', 'diagnose', 'fix']);
  });

  it("onTrip 'stop': the turn ends stopped early before another model call", async () => {
    const provider = scripted({ name: 'small', replies: [pick('diagnose'), pick('triage'), pick('triage'), answer('never')] });
    const agent = Agent.create({ provider, model: 'small-1', id: 'desk', pricing: PRICING })
      .skillGraph(graph, { maxRejectedRetries: 2, onTrip: 'stop' })
      .build();
    const log = record(agent);

    expect((await agent.run('No light on port 9.')).text).toBe('Stopped early (loop guard) at iteration 4.');
    expect(log.of('footprint.loop_guard.trip')).toMatchObject([
      { kind: 'rejected_cap', skills: ['diagnose'], count: 2, iteration: 3, action: 'stop' },
    ]);
    expect(provider.calls).toHaveLength(3);
    expect(log.of('footprint.agent.next_step').at(-1)).toMatchObject({ iteration: 4, chosen: 'stopped' });
    expect(log.of('footprint.agent.turn_end')[0]).toMatchObject({
      outcome: 'stopped_early',
      iterations: 4,
      llmCalls: 3,
      stoppedEarly: { reason: 'loop_guard', iteration: 4 },
    });
    expect(log.of('footprint.agent.iteration_cap')).toEqual([]);
  });
});
