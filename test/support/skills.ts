/**
 * Shared pieces of the skill-graph scenarios: the triage / diagnose / fix skills they walk, scripted
 * replies that call read_skill with fixed token usage (so spend is exact), a price table for the test
 * models, the exact trip and escalation payloads they expect, and an event log per runner.
 */
import { expect } from 'vitest';
import { defineSkill, type EventPayloads, type SkillDefinition, type EventType, type Runner, type ScriptedReply, type TypedEvent } from '../../src/index.js';

/** Every scripted reply uses this much, so each call costs tokens x price exactly. */
export const USAGE = { input: 100, output: 10 };
export const CALL_TOKENS = USAGE.input + USAGE.output;

/** USD per million tokens for the test models. */
export const PRICING = {
  'small-1': { input: 1, output: 2 },
  'big-1': { input: 10, output: 30 },
  'fix-1': { input: 3, output: 6 },
  'strong-1': { input: 50, output: 100 },
};

export function usdOf(model: keyof typeof PRICING, calls = 1): number {
  const price = PRICING[model];
  return (calls * (USAGE.input * price.input + USAGE.output * price.output)) / 1_000_000;
}

/** The entry skill every scenario starts in: no brain or tools of its own. */
export function triageSkill() {
  return defineSkill({ id: 'triage', description: 'Sort the report', body: 'Decide what is wrong.' });
}

/** Finding the cause, the skill after triage; a scenario gives it a brain or tools of its own in `own`. */
export function diagnoseSkill(own: Partial<SkillDefinition> = {}) {
  return defineSkill({ id: 'diagnose', description: 'Find the cause', body: 'Find the cause.', ...own });
}

/** Proposing the fix, the last skill of the scenarios. */
export function fixSkill() {
  return defineSkill({ id: 'fix', description: 'Propose the fix', body: 'Say what to replace.' });
}

/**
 * The loop_guard.trip payload the default guard emits when a ping-pong between `skills` fills its window
 * of 4 and is labelled, `calls` small-model calls after the alternating streak began.
 */
export function labelledPingPongTrip(trip: { turnId: string; skills: [string, string]; iteration: number; calls: number }) {
  return {
    agentId: 'desk',
    turnId: trip.turnId,
    kind: 'ping_pong',
    skills: trip.skills,
    window: 4,
    iteration: trip.iteration,
    tokensSinceLoop: trip.calls * CALL_TOKENS,
    costSinceLoopUsd: expect.closeTo(usdOf('small-1', trip.calls), 15),
    action: 'label',
  };
}

/** The skill.escalated payload of the desk agent moving from small-1 to its strong-1 escalation brain. */
export function escalatedToStrong(escalation: { refusals: number; reason: string; iteration: number }) {
  return {
    agentId: 'desk',
    from: { provider: 'small', model: 'small-1' },
    to: { provider: 'strong', model: 'strong-1' },
    ...escalation,
  };
}

/**
 * The loop_guard.trip payload the default guard emits when a skill's third refusal in a row is labelled,
 * two calls (by `model`) after the rejection run began; the expected value a test pins exactly.
 */
export function labelledRejectionTrip(trip: { turnId: string; skill: string; iteration: number; model: keyof typeof PRICING }) {
  return {
    agentId: 'desk',
    turnId: trip.turnId,
    kind: 'rejected_cap',
    skills: [trip.skill],
    count: 3,
    iteration: trip.iteration,
    tokensSinceLoop: 2 * CALL_TOKENS,
    costSinceLoopUsd: expect.closeTo(usdOf(trip.model, 2), 15),
    action: 'label',
  };
}

export function pick(id: string): ScriptedReply {
  return { toolCalls: [{ name: 'read_skill', args: { id } }], usage: USAGE };
}

export function callTool(name: string, args: Record<string, unknown> = {}): ScriptedReply {
  return { toolCalls: [{ name, args }], usage: USAGE };
}

export function answer(content: string): ScriptedReply {
  return { content, usage: USAGE };
}

export interface EventLog {
  all: TypedEvent[];
  of<K extends EventType>(type: K): EventPayloads[K][];
  events<K extends EventType>(type: K): TypedEvent<K>[];
}

export function record(runner: Runner): EventLog {
  const all: TypedEvent[] = [];
  runner.on('*', (event) => all.push(event));
  const events = <K extends EventType>(type: K) => all.filter((e): e is TypedEvent<K> => e.type === type);
  return { all, events, of: (type) => events(type).map((e) => e.payload) };
}
