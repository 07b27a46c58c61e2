/**
 * Escalate on evidence: two refused read_skill requests in one turn move the rest of that turn to the
 * escalation brain (skill.escalated once, reason 'refusals'); the next run of the same agent starts on
 * the default and skill brains again.
 */
import { expect, it } from 'vitest';
import { Agent, scripted, skillGraph } from '../../../src/index.js';
import { answer, diagnoseSkill, escalatedToStrong, fixSkill, pick, PRICING, record, triageSkill, usdOf } from '../../support/skills.js';

it('escalates after 2 refusals for the rest of the turn, and de-escalates on the next run', async () => {
  const small = scripted({ name: 'small', replies: [pick('fix'), pick('nope'), pick('diagnose')] });
  const big = scripted({ name: 'big', replies: [answer('Second run: the cable.')] });
  const strong = scripted({
    name: 'strong',
    replies: [pick('nope'), pick('diagnose'), answer('First run: the optic.')],
  });
  const triage = triageSkill();
  const diagnose = diagnoseSkill({ provider: big, model: 'big-1' });
  const fix = fixSkill();
  const graph = skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, fix).build();
  const agent = Agent.create({ provider: small, model: 'small-1', id: 'desk', pricing: PRICING })
    .skillGraph(graph, { escalation: { provider: strong, model: 'strong-1', afterRefusals: 2 }, maxRejectedRetries: 5 })
    .build();
  const log = record(agent);

  expect((await agent.run('No light on port 9.')).text).toBe('First run: the optic.');
  expect(log.of('footprint.skill.rejected').map((r) => [r.iteration, r.requested, r.allowed])).toEqual([
    [1, 'fix', ['diagnose']],
    [2, 'nope', ['diagnose']],
    [3, 'nope', ['diagnose']],
  ]);
  // Once, at the ToolCalls stage of the second refusal, though a third refusal followed.
  const escalated = log.events('footprint.skill.escalated');
  expect(escalated.map((e) => e.payload)).toEqual([escalatedToStrong({ refusals: 2, reason: 'refusals', iteration: 2 })]);
  expect(escalated[0]!.meta.runtimeStageId).toBe(log.events('footprint.skill.rejected')[1]!.meta.runtimeStageId);
  // Escalation outranks the skill brain: diagnose (iteration 5) is still served by the strong model.
  const brains = () => log.of('footprint.call.llm_start').map((e) => [e.iteration, e.skill, e.brain.via, e.provider, e.model]);
  expect(brains()).toEqual([
    [1, 'triage', 'default', 'small', 'small-1'],
    [2, 'triage', 'default', 'small', 'small-1'],
    [3, 'triage', 'escalation', 'strong', 'strong-1'],
    [4, 'triage', 'escalation', 'strong', 'strong-1'],
    [5, 'diagnose', 'escalation', 'strong', 'strong-1'],
  ]);
  expect(log.of('footprint.call.llm_end').map((t) => [t.skill, t.brain.via, t.cost.usd])).toEqual([
    ['triage', 'default', usdOf('small-1')],
    ['triage', 'default', usdOf('small-1')],
    ['triage', 'escalation', usdOf('strong-1')],
    ['triage', 'escalation', usdOf('strong-1')],
    ['diagnose', 'escalation', usdOf('strong-1')],
  ]);
  expect(log.of('footprint.loop_guard.trip')).toEqual([]);

  log.all.length = 0;
  expect((await agent.run('Port 4 now.')).text).toBe('Second run: the cable.');
  expect(brains()).toEqual([
    [1, 'triage', 'default', 'small', 'small-1'],
    [2, 'diagnose', 'skill', 'big', 'big-1'],
  ]);
  expect(log.of('footprint.skill.escalated')).toEqual([]);
  expect([small.calls.length, big.calls.length, strong.calls.length]).toEqual([3, 1, 3]);
});
