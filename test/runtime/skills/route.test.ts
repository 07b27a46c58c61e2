/**
 * A normal route through three skills: triage -> diagnose by the model's read_skill pick, diagnose ->
 * fix by a declared `when` edge on the last tool result. Each skill is served by its own brain, its
 * cost is attributed to it, and the recorder's hops and path tell the same story as the events.
 */
import { describe, expect, it } from 'vitest';
import { Agent, defineSkill, scripted, skillGraph, type ScriptedReply } from '../../../src/index.js';
import { skillPathRecorder } from '../../../src/recorders/index.js';
import { answer, callTool, fixSkill, pick, PRICING, record, triageSkill, usdOf } from '../../support/skills.js';

function build() {
  const small = scripted({ name: 'small', replies: [pick('diagnose'), answer('Replace the cable on port 3.')] });
  const big = scripted({ name: 'big', replies: [callTool('get_counters', { port: 3 })] });
  const triage = triageSkill();
  const diagnose = defineSkill({
    id: 'diagnose',
    description: 'Read the port counters',
    body: 'Read the counters.',
    provider: big,
    model: 'big-1',
    tools: [
      {
        name: 'get_counters',
        description: 'Port error counters',
        inputSchema: { type: 'object', properties: { port: { type: 'number' } }, required: ['port'] },
        execute: () => ({ crc: 7, drops: 0 }),
      },
    ],
  });
  const fix = fixSkill();
  const graph = skillGraph()
    .entry(triage)
    .edge(triage, diagnose)
    .edge(diagnose, fix, {
      label: 'CRC>0',
      when: (last) => last?.toolName === 'get_counters' && JSON.parse(last.result).crc > 0,
    })
    .build();
  const recorder = skillPathRecorder({ agentId: 'netops' });
  const agent = Agent.create({ provider: small, model: 'small-1', id: 'netops', pricing: PRICING })
    .skillGraph(graph, { providers: { fix: { model: 'fix-1' } }, skillPathRecorder: recorder })
    .build();
  return { agent, small, big, recorder };
}

describe('a normal route through three skills', () => {
  it('moves triage -> diagnose (model pick) -> fix (declared edge) and answers', async () => {
    const { agent, recorder } = build();
    const log = record(agent);
    expect((await agent.run('Port 3 keeps dropping.')).text).toBe('Replace the cable on port 3.');

    const turnId = log.of('footprint.agent.turn_start')[0]!.turnId;
    const hopIds = log.of('footprint.skill.hop').map((hop) => hop.hopId);
    expect(log.of('footprint.skill.hop')).toEqual([
      { hopId: hopIds[0], agentId: 'netops', turnId, iteration: 1, from: undefined, to: 'triage', cause: 'entry', edgeLabel: undefined },
      { hopId: hopIds[1], agentId: 'netops', turnId, iteration: 2, from: 'triage', to: 'diagnose', cause: 'model_pick', edgeLabel: undefined },
      { hopId: hopIds[2], agentId: 'netops', turnId, iteration: 3, from: 'diagnose', to: 'fix', cause: 'edge', edgeLabel: 'CRC>0' },
    ]);
    // Each hop has an id of its own, unique in the run (what a skill part's producer names).
    expect(new Set(hopIds).size).toBe(3);
    for (const hopId of hopIds) expect(hopId).toMatch(/^hop_[0-9a-f]{12}[0-9a-z]{4,}$/);
    expect(log.of('footprint.skill.entered').map((e) => [e.from, e.skillId, e.iteration])).toEqual([
      [undefined, 'triage', 1],
      ['triage', 'diagnose', 2],
      ['diagnose', 'fix', 3],
    ]);
    expect(log.of('footprint.skill.rejected')).toEqual([]);
    expect(log.of('footprint.loop_guard.trip')).toEqual([]);
    expect(log.of('footprint.agent.turn_end')[0]).toMatchObject({ outcome: 'ok', iterations: 3, llmCalls: 3 });

    expect(recorder.getPath()).toEqual(['triage', 'diagnose', 'fix']);
    expect(recorder.getHops().map((h) => h.cause)).toEqual(['entry', 'model_pick', 'edge']);
    expect(recorder.getHops()[2]!.runtimeStageId).toBe(log.events('footprint.skill.hop')[2]!.meta.runtimeStageId);
    expect(recorder.getTrips()).toEqual([]);
    expect(recorder.getRejections()).toEqual([]);
  });

  it('serves each skill with its brain and sends each call to that provider', async () => {
    const { agent, small, big } = build();
    const log = record(agent);
    await agent.run('Port 3 keeps dropping.');

    expect(log.of('footprint.call.llm_start').map((e) => [e.skill, e.brain])).toEqual([
      ['triage', { via: 'default', provider: 'small', model: 'small-1', skillId: undefined }],
      ['diagnose', { via: 'skill', provider: 'big', model: 'big-1', skillId: 'diagnose' }],
      ['fix', { via: 'skill', provider: 'small', model: 'fix-1', skillId: 'fix' }],
    ]);
    expect(small.calls.map((c) => c.model)).toEqual(['small-1', 'fix-1']);
    expect(big.calls.map((c) => c.model)).toEqual(['big-1']);
    // The skill's body is in the prompt and its tools are offered only while the cursor is on it.
    expect(big.calls[0]!.systemPrompt).toContain('Read the counters.');
    expect(big.calls[0]!.tools?.map((t) => t.name)).toEqual(['get_counters', 'read_skill']);
    expect(small.calls[0]!.tools?.map((t) => t.name)).toEqual(['read_skill']);
  });

  it('gives providers and listeners a snapshot of each request, not a live view of the turn', async () => {
    const { agent, small, big } = build();
    const starts: unknown[] = [];
    agent.on('footprint.call.llm_start', (e) => starts.push(structuredClone(e.payload)));
    agent.on('footprint.agent.turn_end', (e) => starts.push(structuredClone(e.payload)));
    await agent.run('Port 3 keeps dropping.');

    expect(starts).toHaveLength(4);
    expect([small.calls[0]!.messages.length, big.calls[0]!.messages.length, small.calls[1]!.messages.length]).toEqual([1, 3, 5]);
    expect(small.calls[0]!.tools?.map((t) => t.name)).toEqual(['read_skill']);
  });

  it('attributes each call cost to the skill that spent it', async () => {
    const { agent } = build();
    const log = record(agent);
    await agent.run('Port 3 keeps dropping.');

    const calls = log.of('footprint.call.llm_end');
    expect(calls.map((t) => [t.skill, t.model, t.brain.via, t.cost.priced])).toEqual([
      ['triage', 'small-1', 'default', true],
      ['diagnose', 'big-1', 'skill', true],
      ['fix', 'fix-1', 'skill', true],
    ]);
    expect(calls.map((t) => t.cost.usd)).toEqual([usdOf('small-1'), usdOf('big-1'), usdOf('fix-1')]);
    expect(log.of('footprint.agent.turn_end')[0]!.costUsd).toBeCloseTo(usdOf('small-1') + usdOf('big-1') + usdOf('fix-1'), 15);
  });
});

describe("read_skill's answers to the model", () => {
  it('moves, says where it already is, and refuses an unknown skill, an unreachable one and an id that is no string, naming what was asked', async () => {
    const graph = skillGraph().entry(triageSkill()).edge('triage', defineSkill({ id: 'diagnose', description: 'Find the cause', body: 'Find the cause.' })).edge('diagnose', fixSkill()).build();
    const ask = (id: unknown): ScriptedReply => ({ toolCalls: [{ name: 'read_skill', args: { id } }] });
    const provider = scripted({ replies: [ask('triage'), ask('nope'), ask('fix'), ask(42), ask('diagnose'), answer('done')] });
    const agent = Agent.create({ provider, model: 'small-1', id: 'desk' }).skillGraph(graph, { maxRejectedRetries: 10 }).build();
    const log = record(agent);
    expect((await agent.run('Port 3 keeps dropping.')).text).toBe('done');

    const menu = 'From "triage" you may read: "diagnose" (Find the cause). Continue with the current skill or pick one of those.';
    expect(log.of('footprint.call.tool_end').map((e) => [e.status, e.result])).toEqual([
      ['ok', 'You are already in skill "triage".'],
      ['error', `read_skill refused: "nope" is not a skill of this agent. ${menu}`],
      ['error', `read_skill refused: "fix" is not reachable from "triage". ${menu}`],
      ['error', `read_skill refused: 42 is not a skill of this agent. ${menu}`],
      ['ok', 'Moving to skill "diagnose". Its instructions:\nFind the cause.'],
    ]);
    expect(log.of('footprint.skill.rejected').map((r) => [r.requested, r.current, r.allowed])).toEqual([
      ['nope', 'triage', ['diagnose']],
      ['fix', 'triage', ['diagnose']],
      ['42', 'triage', ['diagnose']],
    ]);
  });
});

describe('two read_skill calls in one reply', () => {
  it('the last one decides where the cursor goes, so asking for the current skill after a move stays, as its answer says', async () => {
    const graph = skillGraph().entry(triageSkill()).edge('triage', defineSkill({ id: 'diagnose', description: 'Find the cause', body: 'Find the cause.' })).build();
    const both = (...ids: string[]): ScriptedReply => ({ toolCalls: ids.map((id) => ({ name: 'read_skill', args: { id } })) });
    const provider = scripted({ replies: [both('diagnose', 'triage'), both('triage', 'diagnose'), answer('done')] });
    const agent = Agent.create({ provider, model: 'small-1', id: 'desk' }).skillGraph(graph).build();
    const log = record(agent);
    expect((await agent.run('Port 3 keeps dropping.')).text).toBe('done');

    expect(log.of('footprint.call.tool_end').map((e) => [e.iteration, e.result])).toEqual([
      [1, 'Moving to skill "diagnose". Its instructions:\nFind the cause.'],
      [1, 'You are already in skill "triage".'],
      [2, 'You are already in skill "triage".'],
      [2, 'Moving to skill "diagnose". Its instructions:\nFind the cause.'],
    ]);
    expect(log.of('footprint.skill.hop').map((h) => [h.iteration, h.from, h.to, h.cause])).toEqual([
      [1, undefined, 'triage', 'entry'],
      [2, 'triage', 'triage', 'stay'],
      [3, 'triage', 'diagnose', 'model_pick'],
    ]);
  });
});
