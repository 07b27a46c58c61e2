/**
 * The loop guard's parts on their own (the pure ping-pong and rejected-cap detectors, a turn's
 * guards) and the route recorder's: the per-run book, and the recorder over concurrent runs (state per run id) and across
 * agents (the agentId filter).
 */
import { describe, expect, it } from 'vitest';
import { Agent, defineSkill, registerInstrument, scripted, skillGraph, type LLMRequest } from '../../src/index.js';
import { skillPathRecorder } from '../../src/recorders/index.js';
import { KEPT_RUNS, RunBook } from '../../src/recorders/runBook.js';
import { guardHop, guardRejection, type TurnGuard } from '../../src/runtime/skills/loopGuard.js';
import { extendStreak, pingPongDue, type PingPongStreak } from '../../src/runtime/skills/pingPong.js';
import { addRejection, rejectedCapDue } from '../../src/runtime/skills/rejectedCap.js';
import { answer, pick } from '../support/skills.js';

const zero = { tokens: 0, costUsd: 0 };

describe('ping-pong streaks', () => {
  const walk = (moves: [string, string][], window: number) => {
    let streak: PingPongStreak | undefined;
    const lengths: number[] = [];
    let trips = 0;
    for (const [from, to] of moves) {
      streak = extendStreak(streak, from, to, zero);
      lengths.push(streak.length);
      if (pingPongDue(streak, window)) {
        trips++;
        streak = { ...streak, tripped: true };
      }
    }
    return { lengths, trips };
  };

  it('counts strict alternation between two skills, and restarts on a third skill', () => {
    expect(walk([['a', 'b'], ['b', 'a'], ['a', 'b'], ['b', 'c'], ['c', 'b'], ['b', 'a']], 9).lengths).toEqual([1, 2, 3, 1, 2, 1]);
  });

  it('a cycle through three skills is not a ping-pong', () => {
    expect(walk([['a', 'b'], ['b', 'c'], ['c', 'a'], ['a', 'b'], ['b', 'c'], ['c', 'a']], 2).trips).toBe(0);
  });

  it('trips once per streak however long it runs', () => {
    const long = Array.from({ length: 20 }, (_, i): [string, string] => (i % 2 === 0 ? ['a', 'b'] : ['b', 'a']));
    expect(walk(long, 4).trips).toBe(1);
    expect(walk([...long, ['a', 'c'], ['c', 'a'], ['a', 'c'], ['c', 'a']], 4).trips).toBe(2);
  });
});

describe('rejection runs', () => {
  it('trips once at the cap', () => {
    let run = addRejection(undefined, 'a', { tokens: 7, costUsd: 1 });
    expect(run).toEqual({ skill: 'a', count: 1, startedAt: { tokens: 7, costUsd: 1 }, tripped: false });
    run = addRejection(run, 'a', zero);
    expect(rejectedCapDue(run, 3)).toBe(false);
    run = addRejection(run, 'a', zero);
    expect(rejectedCapDue(run, 3)).toBe(true);
    expect(rejectedCapDue({ ...run, tripped: true, count: 4 }, 3)).toBe(false);
  });
});

describe('a turn guard', () => {
  const limits = { pingPongWindow: 2, maxRejectedRetries: 2 };

  it('ignores entry and stay hops, and a cursor move re-arms the rejected cap', () => {
    const guard: TurnGuard = {};
    expect(guardHop(guard, { to: 'a' }, zero, limits)).toBeUndefined();
    expect(guardHop(guard, { from: 'a', to: 'a' }, zero, limits)).toBeUndefined();
    expect(guard.streak).toBeUndefined();
    expect(guardRejection(guard, 'a', { tokens: 100, costUsd: 0.5 }, limits)).toBeUndefined();
    expect(guardRejection(guard, 'a', { tokens: 150, costUsd: 0.75 }, limits)).toEqual({
      kind: 'rejected_cap',
      skills: ['a'],
      count: 2,
      since: { tokens: 50, costUsd: 0.25 },
    });
    expect(guardRejection(guard, 'a', { tokens: 150, costUsd: 0.75 }, limits)).toBeUndefined();
    guardHop(guard, { from: 'a', to: 'b' }, { tokens: 150, costUsd: 0.75 }, limits);
    expect(guard.rejections).toBeUndefined();
    expect(guardRejection(guard, 'b', zero, limits)).toBeUndefined();
    expect(guardRejection(guard, 'b', zero, limits)?.skills).toEqual(['b']);
  });

  it('measures a ping-pong from its first transition', () => {
    const guard: TurnGuard = {};
    guardHop(guard, { from: 'a', to: 'b' }, { tokens: 10, costUsd: 1 }, limits);
    expect(guardHop(guard, { from: 'b', to: 'a' }, { tokens: 40, costUsd: 3 }, limits)).toEqual({
      kind: 'ping_pong',
      skills: ['a', 'b'],
      window: 2,
      since: { tokens: 30, costUsd: 2 },
    });
  });
});

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
