/**
 * Lineage in a skill graph (issue #36): the current skill's body is a system part produced by the hop
 * that entered the skill (a stay keeps it); read_skill results are tool results; a loop guard's trip
 * and an escalation to another brain change who answers, not where the parts came from. Written down
 * from the scenario: the cursor's texts as skills/cursor.ts words them.
 */
import { describe, expect, it } from 'vitest';
import { Agent, READ_SKILL, defineSkill, scripted, skillGraph, type ScriptedReply } from '../../../src/index.js';
import { instructions, lineageLog, message, producer, skillBody, toolList } from '../../support/lineage.js';

const triage = defineSkill({ id: 'triage', description: 'Sort the report', body: 'Decide what is wrong.' });
const diagnose = defineSkill({ id: 'diagnose', description: 'Find the cause', body: 'Find the cause.' });
const READ_SKILL_SCHEMA = { type: 'object', properties: { id: { type: 'string', description: 'The id of the skill to move to.' } }, required: ['id'], additionalProperties: false };

/** read_skill as the model is offered it in skill `from`, which may read `reachable`. */
function readSkillTool(from: string, reachable: string) {
  return { name: READ_SKILL, description: `Move to another skill. From "${from}" you may read: ${reachable}.`, inputSchema: READ_SKILL_SCHEMA };
}

const pick = (id: string, callId: string): ScriptedReply => ({ toolCalls: [{ id: callId, name: READ_SKILL, args: { id } }] });
const moving = (skill: { id: string; body: string }) => `Moving to skill "${skill.id}". Its instructions:\n${skill.body}`;

describe('a skill graph with hops and a trip', () => {
  it("names the hop that entered the current skill as its body's producer, at every call", async () => {
    const graph = skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, triage).build();
    const provider = scripted({ replies: [pick('diagnose', 'r1'), pick('triage', 'r2'), 'Back at triage: reboot.'] });
    const agent = Agent.create({ provider, model: 'm1', id: 'desk' }).system('Desk.').skillGraph(graph, { pingPongWindow: 2 }).build();
    const log = lineageLog(agent);
    const trips: string[] = [];
    agent.on('footprint.loop_guard.trip', (event) => void trips.push(`${event.payload.kind} at ${event.payload.iteration}: ${event.payload.action}`));
    const result = await agent.run('No light.');
    expect(result.text).toBe('Back at triage: reboot.');
    expect(trips).toEqual(['ping_pong at 3: label']);
    const [h1, h2, h3] = log.hops.map((hop) => hop.hopId) as [string, string, string];
    expect(log.hops.map((hop) => [hop.hopId, hop.cause, hop.to])).toEqual([
      [h1, 'entry', 'triage'],
      [h2, 'model_pick', 'diagnose'],
      [h3, 'model_pick', 'triage'],
    ]);
    const [c1, c2] = log.callIds() as [string, string, string];
    const system = instructions('desk', 'Desk.');
    const input = message(0, 'user', 'run_input', producer.run(result.runId), 'No light.');
    const reply1 = message(1, 'assistant', 'model_output', producer.call(c1), '', { toolCalls: [{ name: READ_SKILL, args: { id: 'diagnose' } }] });
    const result1 = message(2, 'tool', 'tool_result', producer.tool(c1, 'r1'), moving(diagnose));
    const reply2 = message(3, 'assistant', 'model_output', producer.call(c2), '', { toolCalls: [{ name: READ_SKILL, args: { id: 'triage' } }] });
    const result2 = message(4, 'tool', 'tool_result', producer.tool(c2, 'r2'), moving(triage));
    expect(log.parts()).toEqual([
      [system, skillBody(h1, triage), input, toolList('desk', [readSkillTool('triage', 'diagnose')])],
      [system, skillBody(h2, diagnose), input, reply1, result1, toolList('desk', [readSkillTool('diagnose', 'triage')])],
      [system, skillBody(h3, triage), input, reply1, result1, reply2, result2, toolList('desk', [readSkillTool('triage', 'diagnose')])],
    ]);
  });
});

describe('escalation', () => {
  it('keeps the parts of a call on the escalation brain as they were: a refused pick stays in the skill its hop entered', async () => {
    const graph = skillGraph().entry(triage).edge(triage, diagnose).build();
    const small = scripted({ name: 'small', replies: [pick('fix', 'r1')] });
    const strong = scripted({ name: 'strong', replies: ['The optic.'] });
    const agent = Agent.create({ provider: small, model: 'small-1', id: 'desk' })
      .skillGraph(graph, { escalation: { provider: strong, model: 'strong-1', afterRefusals: 1 } })
      .build();
    const log = lineageLog(agent);
    const result = await agent.run('No light.');
    expect(result.text).toBe('The optic.');
    expect(log.starts.map((s) => s.payload.brain.via)).toEqual(['default', 'escalation']);
    const [h1, h2] = log.hops.map((hop) => hop.hopId) as [string, string];
    expect(log.hops.map((hop) => hop.cause)).toEqual(['entry', 'stay']);
    const [c1] = log.callIds() as [string];
    const refusal = 'read_skill refused: "fix" is not a skill of this agent. From "triage" you may read: "diagnose" (Find the cause). Continue with the current skill or pick one of those.';
    const tools = toolList('desk', [readSkillTool('triage', 'diagnose')]);
    const input = message(0, 'user', 'run_input', producer.run(result.runId), 'No light.');
    expect(log.parts()).toEqual([
      [skillBody(h1, triage, 0), input, tools],
      [
        skillBody(h1, triage, 0),
        input,
        message(1, 'assistant', 'model_output', producer.call(c1), '', { toolCalls: [{ name: READ_SKILL, args: { id: 'fix' } }] }),
        message(2, 'tool', 'tool_result', producer.tool(c1, 'r1'), refusal),
        tools,
      ],
    ]);
    expect(h2).not.toBe(h1);
  });
});
