/**
 * Pause and resume inside a skill: the run pauses in 'diagnose' for a human and resumes from its JSON
 * checkpoint on a new agent instance. The cursor, its brain and the turn's refusal count survive, and
 * the route recorder carries its record and guards across the pause, so a rejection run begun before
 * the pause trips after it, in the same run.
 */
import { expect, it } from 'vitest';
import { Agent, isPaused, scripted, skillGraph, type ScriptedReply } from '../../../src/index.js';
import { skillPathRecorder } from '../../../src/recorders/index.js';
import { answer, diagnoseSkill, fixSkill, labelledRejectionTrip, pick, PRICING, record, triageSkill, USAGE } from '../../support/skills.js';

function build(bigReplies: ScriptedReply[]) {
  const small = scripted({ name: 'small', replies: [pick('diagnose')] });
  const big = scripted({ name: 'big', replies: bigReplies });
  const triage = triageSkill();
  const diagnose = diagnoseSkill({
    provider: big,
    model: 'big-1',
    tools: [
      {
        name: 'ask_human',
        description: 'Ask the on-call engineer',
        inputSchema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
        execute: async (args: { question: string }, ctx) => `engineer says: ${String(await ctx.pause(args.question))}`,
      },
    ],
  });
  const fix = fixSkill();
  const graph = skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, fix).build();
  const recorder = skillPathRecorder({ agentId: 'desk' });
  const agent = Agent.create({ provider: small, model: 'small-1', id: 'desk', pricing: PRICING })
    .skillGraph(graph, { skillPathRecorder: recorder })
    .build();
  return { agent, small, big, recorder };
}

it('keeps the cursor, its brain and the guards across pause and resume on a new instance', async () => {
  const first = build([
    pick('triage'), // 2: rejected (1)
    {
      toolCalls: [
        { name: 'read_skill', args: { id: 'triage' } }, // 3: rejected (2)
        { name: 'ask_human', args: { question: 'May I reboot the switch?' } },
      ],
      usage: USAGE,
    },
  ]);
  const before = record(first.agent);
  const paused = await first.agent.run('No light on port 9.');
  if (!isPaused(paused)) throw new Error('expected the run to pause');
  expect(paused.paused.question).toBe('May I reboot the switch?');
  expect(before.of('footprint.agent.iteration_start').map((e) => e.skill)).toEqual(['triage', 'diagnose', 'diagnose']);
  expect(before.of('footprint.loop_guard.trip')).toEqual([]);

  const second = build([pick('triage') /* 4: rejected (3): trip */, answer('Rebooted; the link is up.')]);
  const after = record(second.agent);
  const checkpoint = JSON.parse(JSON.stringify(paused.paused.checkpoint));
  expect((await second.agent.resume(checkpoint, 'yes')).text).toBe('Rebooted; the link is up.');

  const runId = before.all[0]!.meta.runId;
  expect(after.all.every((e) => e.meta.runId === runId)).toBe(true);
  const turnId = before.of('footprint.agent.turn_start')[0]!.turnId;
  expect(after.of('footprint.agent.turn_start')).toEqual([]);
  // The cursor stayed in diagnose, and diagnose's brain served every call after the resume.
  expect(after.of('footprint.skill.hop').map((h) => [h.iteration, h.from, h.to, h.cause, h.turnId])).toEqual([
    [4, 'diagnose', 'diagnose', 'stay', turnId],
    [5, 'diagnose', 'diagnose', 'stay', turnId],
  ]);
  expect(after.of('footprint.call.llm_start').map((e) => [e.iteration, e.skill, e.brain.via, e.provider])).toEqual([
    [4, 'diagnose', 'skill', 'big'],
    [5, 'diagnose', 'skill', 'big'],
  ]);
  expect(second.small.calls).toHaveLength(0);
  // The paused tool re-ran with the answer; the read_skill refusal before the pause was not re-asked.
  expect(after.of('footprint.call.tool_end').map((e) => [e.iteration, e.toolName, e.status, e.result])).toEqual([
    [3, 'ask_human', 'ok', 'engineer says: yes'],
    [4, 'read_skill', 'error', expect.stringContaining('"triage" is not reachable from "diagnose"')],
  ]);
  // The rejection run began before the pause (after 2 calls) and tripped after it (after 4 calls).
  expect(after.of('footprint.loop_guard.trip')).toEqual([
    labelledRejectionTrip({ turnId, skill: 'diagnose', iteration: 4, model: 'big-1' }),
  ]);
  expect(second.recorder.getPath(runId)).toEqual(['triage', 'diagnose']);
  expect(second.recorder.getHops(runId).map((h) => h.iteration)).toEqual([1, 2, 3, 4, 5]);
  expect(second.recorder.getRejections(runId).map((r) => r.iteration)).toEqual([2, 3, 4]);
  expect(second.recorder.getTrips()).toHaveLength(1);
  expect(first.recorder.getTrips(runId)).toEqual([]);
  expect(after.of('footprint.agent.turn_end')[0]).toMatchObject({ outcome: 'ok', iterations: 5, llmCalls: 5 });
});
