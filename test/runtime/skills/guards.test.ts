/**
 * The loop guard's parts on their own: the pure ping-pong and rejected-cap detectors, and a turn's
 * guards. (The skill-path recorder, which records what they report: test/recorders/skillPathRecorder.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { guardHop, guardRejection, type TurnGuard } from '../../../src/runtime/skills/loopGuard.js';
import { extendStreak, pingPongDue, type PingPongStreak } from '../../../src/runtime/skills/pingPong.js';
import { addRejection, rejectedCapDue } from '../../../src/runtime/skills/rejectedCap.js';

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
