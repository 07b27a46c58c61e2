/**
 * What a model call's llm_start lists as its input parts (issue #36): the system slot (the agent's
 * instructions, then the current skill's body, produced by the hop that entered it), every message of
 * the window sent with the origin kept beside it in the run's store (run/lineage.ts), then the tool
 * list as one part. The system and tool parts change only when Context assembles the slots again, so
 * they are made once per assembly; the messages' parts come from run/inputParts.ts, once per message.
 */
import type { KeyObject } from 'node:crypto';
import type { InputPart } from '../../events/index.js';
import { messagePart, safeStringify, slotPart, type MessageOrigin } from '../run/index.js';
import type { LLMRequest } from '../providers/index.js';
import type { AgentConfig } from './config.js';
import type { Turn } from './state.js';

/** The parts of the system slot and the tool list, by the slot assembly (Turn.request) they belong to. */
const slotParts = new WeakMap<Turn['request'], { key: KeyObject | undefined; system: InputPart[]; tools: InputPart[] }>();

export interface SentWindow {
  request: LLMRequest;
  /** The origins of the turn's whole conversation, one per message. */
  origins: readonly MessageOrigin[];
  /** How many of the oldest messages the window left out. */
  dropped: number;
}

export function callParts(turn: Turn, config: AgentConfig, { request, origins, dropped }: SentWindow, key: KeyObject | undefined): InputPart[] {
  const slots = slotPartsOf(turn, config, request, key);
  const system = slots.system;
  const tools = slots.tools;
  const messages = request.messages;
  // Sized once and filled by index: one allocation per call, no spread.
  const parts = new Array<InputPart>(system.length + messages.length + tools.length);
  let at = 0;
  for (let i = 0; i < system.length; i++) parts[at++] = system[i]!;
  for (let i = 0; i < messages.length; i++) parts[at++] = messagePart(messages[i]!, i, origins[dropped + i]!, key);
  for (let i = 0; i < tools.length; i++) parts[at++] = tools[i]!;
  return parts;
}

function slotPartsOf(turn: Turn, config: AgentConfig, request: LLMRequest, key: KeyObject | undefined): { system: InputPart[]; tools: InputPart[] } {
  const assembly = turn.request;
  const kept = slotParts.get(assembly);
  if (kept !== undefined && kept.key === key) return kept;
  const agent = { kind: 'member' as const, id: config.member.id };
  const system: InputPart[] = [];
  if (config.systemPrompt !== '') system.push(slotPart('system', system.length, 'instructions', agent, config.systemPrompt, key));
  const skillBody = config.cursor && turn.skill ? config.cursor.body(turn.skill) : '';
  if (skillBody !== '') system.push(slotPart('system', system.length, 'skill', { kind: 'hop', id: turn.skillHop ?? '' }, skillBody, key));
  const tools = request.tools === undefined ? [] : [slotPart('tools', 0, 'tool_definitions', agent, safeStringify(request.tools), key)];
  const made = { key, system, tools };
  slotParts.set(assembly, made);
  return made;
}
