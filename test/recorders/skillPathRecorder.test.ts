/**
 * The skill-path recorder on its own: the per-run book (by run id, else the latest, bounded), and the
 * recorder over concurrent runs (state per run id) and across agents (the agentId filter).
 */
import { describe, expect, it } from 'vitest';
import { Agent, defineSkill, registerInstrument, scripted, skillGraph, type LLMRequest } from '../../src/index.js';
import { skillPathRecorder } from '../../src/recorders/index.js';
import { KEPT_RUNS, RunBook } from '../../src/recorders/runBook.js';
import { answer, pick } from '../support/skills.js';

describe('the run book', () => {
  it('answers by run id, else with the latest run, and keeps a bounded number of runs', () => {
    const book = new RunBook();
    const run = (runId: string) => ({ runId, hops: [], rejections: [], trips: [] });
    for (let i = 0; i <= KEPT_RUNS; i++) book.put(run(`r${i}`));
    expect(book.get()?.runId).toBe(`r${KEPT_RUNS}`);
    expect(book.get('r0')).toBeUndefined();
    expect(book.get('r1')?.runId).toBe('r1');
    book.put(run('r1'));
    expect(book.get()?.runId).toBe('r1');
  });
});

describe('the recorder across runs and agents', () => {
  const triage = defineSkill({ id: 'triage', description: 'Sort the report', body: 'Decide.' });
  const diagnose = defineSkill({ id: 'diagnose', description: 'Find the cause', body: 'Find it.' });
  const graph = skillGraph().entry(triage).edge(triage, diagnose).build();
  /** Moves on 'move', asks for a skill it cannot reach on anything else, then answers. */
  const script = (request: LLMRequest) => {
    if (request.messages.some((m) => m.role === 'tool')) return answer('done');
    return request.messages[0]!.content === 'move' ? pick('diagnose') : pick('nope');
  };

  it('keeps concurrent runs apart, by run id', async () => {
    const recorder = skillPathRecorder({ agentId: 'desk' });
    const provider = scripted({ replies: script, delayMs: 5 });
    const agent = Agent.create({ provider, model: 'small-1', id: 'desk' }).skillGraph(graph, { skillPathRecorder: recorder }).build();
    const runIds: Record<string, string> = {};
    agent.on('footprint.agent.turn_start', (e) => (runIds[e.payload.message] = e.meta.runId));

    await Promise.all([agent.run('move'), agent.run('stuck'), agent.run('move')]);
    const [move, stuck] = [runIds['move']!, runIds['stuck']!];
    expect(recorder.getPath(stuck)).toEqual(['triage']);
    expect(recorder.getRejections(stuck).map((r) => r.requested)).toEqual(['nope']);
    expect(recorder.getPath(move)).toEqual(['triage', 'diagnose']);
    expect(recorder.getRejections(move)).toEqual([]);
    expect(recorder.getHops(move).every((h) => h.agentId === 'desk')).toBe(true);

    await agent.run('stuck');
    expect(recorder.getRejections()).toHaveLength(1);
    expect(recorder.getHops()[0]!.turnId).not.toBe(recorder.getHops(stuck)[0]!.turnId);
    expect(recorder.getPath('unknown-run')).toEqual([]);
  });

  it('a registered recorder records every agent, or only the one it is scoped to', async () => {
    const all = skillPathRecorder();
    const other = skillPathRecorder({ agentId: 'other' });
    const off = [registerInstrument(all), registerInstrument(other)];
    try {
      const agent = Agent.create({ provider: scripted({ replies: script }), model: 'small-1', id: 'desk' })
        .skillGraph(graph, { skillPathRecorder: skillPathRecorder({ agentId: 'desk' }) })
        .build();
      await agent.run('move');
      // A run with no skill-graph turn leaves no record behind: the latest run is still the one above.
      await Agent.create({ provider: scripted({ replies: ['plain'] }), model: 'small-1', id: 'plain' }).build().run('hi');
      expect(all.getPath()).toEqual(['triage', 'diagnose']);
      expect(other.getHops()).toEqual([]);
    } finally {
      for (const unregister of off) unregister();
    }
  });
});
