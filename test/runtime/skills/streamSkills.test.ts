/**
 * A skill-graph turn streamed is the same turn as run(): the same events in the same order with the
 * same payloads (skill hops, refusals, a rejected-cap and a ping-pong trip, escalation, costs), the same route recorder
 * path and trips, the same answer. Only what streaming adds differs: llm_chunk events, llm_start's
 * `stream` flag and llm_end's `streamed` totals.
 */
import { describe, expect, it } from 'vitest';
import { Agent, skillPathRecorder, scripted, skillGraph, type TypedEvent } from '../../../src/index.js';
import { drain } from '../../support/streams.js';
import { answer, diagnoseSkill, fixSkill, pick, PRICING, record, triageSkill } from '../../support/skills.js';

/** Refusals that escalate, a ping-pong the guard labels, a skill brain of its own, then the answer (chunked). */
function desk() {
  const small = scripted({ name: 'small', chunkChars: 7, replies: [pick('fix'), pick('nope'), pick('diagnose')] });
  const strong = scripted({
    name: 'strong',
    chunkChars: 7,
    replies: [pick('nope'), pick('diagnose'), pick('triage'), pick('diagnose'), pick('triage'), pick('diagnose'), answer('The optic, replace it.')],
  });
  const big = scripted({ name: 'big', chunkChars: 7, replies: [answer('unused')] });
  const triage = triageSkill();
  const diagnose = diagnoseSkill({ provider: big, model: 'big-1' });
  const graph = skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, triage).edge(diagnose, fixSkill()).build();
  const recorder = skillPathRecorder({ agentId: 'desk' });
  const agent = Agent.create({ provider: small, model: 'small-1', id: 'desk', pricing: PRICING, maxIterations: 20 })
    .skillGraph(graph, { escalation: { provider: strong, model: 'strong-1', afterRefusals: 2 }, maxRejectedRetries: 3, skillPathRecorder: recorder })
    .build();
  return { agent, recorder, log: record(agent) };
}

/**
 * An event without what differs between two runs (ids, times) or what streaming adds. Scripted tool
 * call ids name their provider instance (`call_<instance>_<call>_<i>`): the instance is dropped.
 */
function comparable(event: TypedEvent): unknown {
  const { callId, turnId, durationMs, stream, streamed, hopId, parts, ...payload } = event.payload as Record<string, unknown>;
  const sameIds = JSON.parse(JSON.stringify(payload).replace(/call_\d+_(\d+_\d+)/g, 'call_$1'));
  return { type: event.type, payload: sameIds, member: event.meta.member, route: event.meta.route, stage: event.meta.runtimeStageId };
}

describe('a skill-graph turn, streamed', () => {
  it('emits the same events, costs and route as run(), and answers the same', async () => {
    const ran = desk();
    const answerOfRun = await ran.agent.run('No light on port 9.');
    const streamed = desk();
    const stream = streamed.agent.stream('No light on port 9.');
    await drain(stream);
    expect((await stream.result).text).toBe(answerOfRun.text);
    expect(answerOfRun.text).toBe('The optic, replace it.');

    const withoutChunks = streamed.log.all.filter((e) => e.type !== 'footprint.call.llm_chunk');
    expect(withoutChunks.map(comparable)).toEqual(ran.log.all.map(comparable));
    // The scenario did walk refusals (three in a row: a labelled rejected-cap trip), escalation and a labelled ping-pong.
    expect(streamed.log.of('footprint.skill.escalated').map((e) => e.reason)).toEqual(['refusals']);
    expect(streamed.log.of('footprint.loop_guard.trip').map((t) => [t.kind, t.action])).toEqual([
      ['rejected_cap', 'label'],
      ['ping_pong', 'label'],
    ]);
    expect(streamed.recorder.getPath()).toEqual(ran.recorder.getPath());
    expect(streamed.recorder.getTrips().map(({ runtimeStageId, turnId, ...trip }) => trip)).toEqual(
      ran.recorder.getTrips().map(({ runtimeStageId, turnId, ...trip }) => trip),
    );
    // Streaming adds only its own: every call streamed, every chunk reported.
    expect(streamed.log.of('footprint.call.llm_start').every((e) => e.stream)).toBe(true);
    const chunks = streamed.log.of('footprint.call.llm_chunk').length;
    const counted = streamed.log.of('footprint.call.llm_end').reduce((sum, e) => sum + (e.streamed?.chunks ?? 0), 0);
    expect(counted).toBe(chunks);
  });
});
