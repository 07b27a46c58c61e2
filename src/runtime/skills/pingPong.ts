/**
 * Ping-pong detection, pure. A streak is the run of consecutive cursor transitions (moves to a
 * different skill) that strictly alternate between the same two skills: A→B, B→A, A→B, ... The guard
 * trips once, when a streak reaches the window, and re-arms only when a transition breaks the
 * alternation (a move that involves a third skill starts a new streak). So a long ping-pong yields one
 * trip, not one per hop, and a new ping-pong after a break is caught again.
 */
import type { Spend } from './spend.js';

export interface PingPongStreak {
  /** The two skills, in the order the streak's first transition visited them. */
  skills: [string, string];
  /** Where the last transition arrived. */
  at: string;
  /** Transitions in the streak so far. */
  length: number;
  /** The turn's spend when the streak's first transition happened. */
  startedAt: Spend;
  tripped: boolean;
}

/** The streak after the transition from → to (from !== to), which either continues it or starts a new one. */
export function extendStreak(
  streak: PingPongStreak | undefined,
  from: string,
  to: string,
  spent: Spend,
): PingPongStreak {
  const continues = streak !== undefined && from === streak.at && streak.skills.includes(to);
  if (!continues) return { skills: [from, to], at: to, length: 1, startedAt: { ...spent }, tripped: false };
  // Every field named: a property after a spread is a slow runtime call on Node 20's V8 (docs/architecture.md).
  return { skills: streak.skills, at: to, length: streak.length + 1, startedAt: streak.startedAt, tripped: streak.tripped };
}

/** True when the streak has reached the window and has not tripped yet. */
export function pingPongDue(streak: PingPongStreak, window: number): boolean {
  return !streak.tripped && streak.length >= window;
}
