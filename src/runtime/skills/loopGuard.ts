/**
 * One agent turn's loop guards over its skill-graph moves: its ping-pong streak and its run of
 * rejections. Fed the turn's hops and rejections in order, with what the turn has spent so far, it
 * returns a finding the moment a guard trips. Plain JSON, so it lives in the turn's state and a paused
 * turn resumes with it. The agent acts on a finding itself (agent/stages/guardMoves.ts).
 */
import { ConfigError, numberSetting } from '../run/index.js';
import { extendStreak, pingPongDue, type PingPongStreak } from './pingPong.js';
import { addRejection, rejectedCapDue, type RejectionRun } from './rejectedCap.js';
import type { Spend } from './spend.js';

export interface TurnGuard {
  streak?: PingPongStreak;
  rejections?: RejectionRun;
}

export interface GuardLimits {
  pingPongWindow: number;
  maxRejectedRetries: number;
}

/** What a trip does: only report it ('label'), end the turn stopped early, or go on with the escalation brain. */
export type OnTrip = 'label' | 'stop' | 'escalate';

/** The loop-guard settings of an agent with a skill graph (part of its SkillGraphOptions). */
export interface LoopGuardOptions {
  /** Alternating moves between two skills that count as a ping-pong (default 4). */
  pingPongWindow?: number;
  /** read_skill refusals in a row, without moving, that trip the guard (default 3). */
  maxRejectedRetries?: number;
  /** Default 'label'. */
  onTrip?: OnTrip;
}

export interface LoopGuard {
  limits: GuardLimits;
  onTrip: OnTrip;
}

export interface Finding {
  kind: 'ping_pong' | 'rejected_cap';
  skills: string[];
  window?: number;
  count?: number;
  /** Spent since the loop began (the streak's first transition, or the run's first rejection). */
  since: Spend;
}

const ON_TRIP: readonly OnTrip[] = ['label', 'stop', 'escalate'];
const OWNER = 'skillGraph options';

/** The guard an agent's options describe; a ConfigError names the option that cannot work. */
export function loopGuardOf(options: LoopGuardOptions): LoopGuard {
  const pingPongWindow = numberSetting(OWNER, 'pingPongWindow', options.pingPongWindow, { min: 2, max: 1_000 }, 4);
  const maxRejectedRetries = numberSetting(OWNER, 'maxRejectedRetries', options.maxRejectedRetries, { min: 1, max: 1_000 }, 3);
  const onTrip = options.onTrip ?? 'label';
  if (!ON_TRIP.includes(onTrip)) {
    throw new ConfigError(`${OWNER}: onTrip must be one of ${ON_TRIP.join(', ')} (got ${String(onTrip)})`, { field: 'onTrip' });
  }
  return { limits: { pingPongWindow, maxRejectedRetries }, onTrip };
}

export function guardHop(guard: TurnGuard, hop: { from?: string; to: string }, spent: Spend, limits: GuardLimits): Finding | undefined {
  // Entry (no from) and stay (from === to) are not transitions.
  if (hop.from === undefined || hop.from === hop.to) return undefined;
  guard.rejections = undefined;
  const streak = extendStreak(guard.streak, hop.from, hop.to, spent);
  guard.streak = streak;
  if (!pingPongDue(streak, limits.pingPongWindow)) return undefined;
  streak.tripped = true;
  return { kind: 'ping_pong', skills: [...streak.skills], window: limits.pingPongWindow, since: sinceThen(spent, streak.startedAt) };
}

export function guardRejection(guard: TurnGuard, current: string, spent: Spend, limits: GuardLimits): Finding | undefined {
  const run = addRejection(guard.rejections, current, spent);
  guard.rejections = run;
  if (!rejectedCapDue(run, limits.maxRejectedRetries)) return undefined;
  run.tripped = true;
  return { kind: 'rejected_cap', skills: [run.skill], count: run.count, since: sinceThen(spent, run.startedAt) };
}

function sinceThen(now: Spend, then: Spend): Spend {
  return { tokens: now.tokens - then.tokens, costUsd: now.costUsd - then.costUsd };
}
