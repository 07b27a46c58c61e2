/**
 * Lineage scenarios' shared pieces (issue #36): the llm_start events of a run, in order, and the
 * expected parts written down from a scenario's own texts: each builder measures the text it is
 * given as the contract says (characters; tokens ceil(chars / 4)), never reads a part it checks.
 */
import type { EventPayloads, InputOriginKind, InputPart, InputProducer, Runner, TypedEvent } from '../../src/index.js';

export type LlmStart = EventPayloads['footprint.call.llm_start'];

/** Every llm_start (and skill hop) a runner's runs emit, in order; chunks and the rest are not kept. */
export function lineageLog(runner: Runner) {
  const starts: TypedEvent<'footprint.call.llm_start'>[] = [];
  const hops: EventPayloads['footprint.skill.hop'][] = [];
  runner.on('footprint.call.llm_start', (event) => void starts.push(event));
  runner.on('footprint.skill.hop', (event) => void hops.push(event.payload));
  return {
    starts,
    hops,
    /** The callIds of the model calls, in order. */
    callIds: () => starts.map((s) => s.payload.callId),
    /** The parts of every call, in order. */
    parts: () => starts.map((s) => s.payload.parts),
    /** The parts of the calls one agent made. */
    partsOf: (agentId: string) => starts.filter((s) => s.payload.agentId === agentId).map((s) => s.payload.parts),
  };
}

const tokensOf = (chars: number) => Math.ceil(chars / 4);

export const producer = {
  run: (id: string, runId?: string): InputProducer => (runId === undefined ? { kind: 'run', id } : { kind: 'run', id, runId }),
  member: (id: string): InputProducer => ({ kind: 'member', id }),
  call: (id: string, runId?: string): InputProducer => (runId === undefined ? { kind: 'model_call', id } : { kind: 'model_call', id, runId }),
  tool: (callId: string, toolCallId: string, runId?: string): InputProducer =>
    runId === undefined ? { kind: 'tool_call', id: `${callId}:${toolCallId}` } : { kind: 'tool_call', id: `${callId}:${toolCallId}`, runId },
  hop: (id: string): InputProducer => ({ kind: 'hop', id }),
};

/** The agent's instructions part (the system slot's first). */
export function instructions(agentId: string, text: string, index = 0): InputPart {
  return { slot: 'system', index, role: 'system', origin: 'instructions', producer: producer.member(agentId), chars: text.length, tokens: tokensOf(text.length) };
}

/** The current skill's body in the system slot, as the cursor writes it ("## Current skill: id\nbody"). */
export function skillBody(hopId: string, skill: { id: string; body: string }, index = 1): InputPart {
  const chars = `## Current skill: ${skill.id}\n${skill.body}`.length;
  return { slot: 'system', index, role: 'system', origin: 'skill', producer: producer.hop(hopId), chars, tokens: tokensOf(chars) };
}

/** The text a message counts: its text, and each tool call's name and JSON arguments. */
export function messageChars(text: string, toolCalls: { name: string; args: unknown }[] = []): number {
  return toolCalls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.args).length, text.length);
}

/** A message part; `restoredFrom` for a checkpoint or conversation part. */
export function message(
  index: number,
  role: InputPart['role'],
  origin: InputOriginKind,
  from: InputProducer,
  text: string,
  options: { toolCalls?: { name: string; args: unknown }[]; restoredFrom?: InputPart['restoredFrom'] } = {},
): InputPart {
  const chars = messageChars(text, options.toolCalls);
  const part: InputPart = { slot: 'messages', index, role, origin, producer: from, chars, tokens: tokensOf(chars) };
  if (options.restoredFrom !== undefined) part.restoredFrom = options.restoredFrom;
  return part;
}

/** The tool list part: the JSON of the tools as the model is given them. */
export function toolList(agentId: string, tools: { name: string; description: string; inputSchema: Record<string, unknown> }[]): InputPart {
  const chars = JSON.stringify(tools).length;
  return { slot: 'tools', index: 0, role: 'system', origin: 'tool_definitions', producer: producer.member(agentId), chars, tokens: tokensOf(chars) };
}
