/**
 * Shared pieces of the skill-graph scenarios: scripted replies that call read_skill with fixed token
 * usage (so spend is exact), a price table for the test models, and an event log per runner.
 */
import type { EventPayloads, EventType, Runner, ScriptedReply, TypedEvent } from '../../src/index.js';

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
