/**
 * One agent turn's loop guards: what the turn has spent so far, its ping-pong streak and its run of
 * rejections. Fed the turn's hops, rejections and cost ticks in order, it returns a finding the moment
 * a guard trips. Plain JSON, so a paused run carries it in its checkpoint.
 */
import { extendStreak, pingPongDue, type PingPongStreak } from './pingPong.js';
import { addRejection, rejectedCapDue, type RejectionRun } from './rejectedCap.js';
import type { Spend } from './types.js';

export interface TurnGuard {
  spent: Spend;
  streak?: PingPongStreak;
  rejections?: RejectionRun;
}

export interface GuardLimits {
  pingPongWindow: number;
  maxRejectedRetries: number;
}

export interface Finding {
  kind: 'ping_pong' | 'rejected_cap';
  skills: string[];
  window?: number;
  count?: number;
  /** Spent since the loop began (the streak's first transition, or the run's first rejection). */
  since: Spend;
}

export function newTurnGuard(): TurnGuard {
  return { spent: { tokens: 0, costUsd: 0 } };
}

export function guardCost(guard: TurnGuard, tokens: number, usd: number): void {
  guard.spent = { tokens: guard.spent.tokens + tokens, costUsd: guard.spent.costUsd + usd };
}

export function guardHop(guard: TurnGuard, hop: { from?: string; to: string }, limits: GuardLimits): Finding | undefined {
  // Entry (no from) and stay (from === to) are not transitions.
  if (hop.from === undefined || hop.from === hop.to) return undefined;
  guard.rejections = undefined;
  const streak = extendStreak(guard.streak, hop.from, hop.to, guard.spent);
  guard.streak = streak;
  if (!pingPongDue(streak, limits.pingPongWindow)) return undefined;
  streak.tripped = true;
  return { kind: 'ping_pong', skills: [...streak.skills], window: limits.pingPongWindow, since: sinceThen(guard, streak.startedAt) };
}

export function guardRejection(guard: TurnGuard, current: string, limits: GuardLimits): Finding | undefined {
  const run = addRejection(guard.rejections, current, guard.spent);
  guard.rejections = run;
  if (!rejectedCapDue(run, limits.maxRejectedRetries)) return undefined;
  run.tripped = true;
  return { kind: 'rejected_cap', skills: [run.skill], count: run.count, since: sinceThen(guard, run.startedAt) };
}

function sinceThen(guard: TurnGuard, then: Spend): Spend {
  return { tokens: guard.spent.tokens - then.tokens, costUsd: guard.spent.costUsd - then.costUsd };
}
