/**
 * What a model call's llm_start lists as its input parts (issue #36): the system slot (the agent's
 * instructions, then the current skill's body, produced by the hop that entered it), every message of
 * the window sent with the origin kept beside it in the run's store (run/lineage.ts), then the tool
 * list as one part. The system and tool parts change only when the slots are assembled again (stages/context.ts), so
 * they are made once per assembly, and an agent's next run takes its last run's when they are the same
 * (its tool definitions are not serialised again for their size); the messages' parts come from
 * run/inputParts.ts, kept per conversation: by its origin list, the one list of the run's store that
 * grows with it, message for message.
 */
import type { KeyObject } from 'node:crypto';
import type { InputPart } from '../../events/index.js';
import { ConversationParts, safeStringify, slotPart, type MessageOrigin } from '../run/index.js';
import type { LLMRequest, ToolSpec } from '../providers/index.js';
import type { AgentConfig } from './config.js';
import type { Turn } from './state.js';

/** The parts of the system slot and the tool list, and what they were made of. */
interface SlotParts {
  key: KeyObject | undefined;
  system: InputPart[];
  tools: InputPart[];
  skillBody: string;
  skillHop: string;
  toolSpecs: readonly ToolSpec[] | undefined;
}

/** The slot parts by the slot assembly (Turn.request) they belong to. */
const slotParts = new WeakMap<Turn['request'], SlotParts>();
/** Each agent's latest slot parts: reused by its next run's first call when its slots are the same. */
const lastSlotParts = new WeakMap<AgentConfig, SlotParts>();
/** The message parts of each conversation, by its origin list. */
const conversationParts = new WeakMap<readonly MessageOrigin[], ConversationParts>();

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
  if (messages.length > 0) {
    let kept = conversationParts.get(origins);
    if (kept === undefined || kept.key !== key) conversationParts.set(origins, (kept = new ConversationParts(key)));
    for (let i = 0; i < messages.length; i++) parts[at++] = kept.part(messages[i]!, dropped + i, i, origins[dropped + i]!);
  }
  for (let i = 0; i < tools.length; i++) parts[at++] = tools[i]!;
  return parts;
}

function slotPartsOf(turn: Turn, config: AgentConfig, request: LLMRequest, key: KeyObject | undefined): SlotParts {
  const assembly = turn.request;
  const kept = slotParts.get(assembly);
  if (kept !== undefined && kept.key === key) return kept;
  const skillBody = config.cursor && turn.skill ? config.cursor.body(turn.skill) : '';
  const skillHop = turn.skillHop ?? '';
  const tools = request.tools;
  // A run's first call: the agent's last run very likely sent the same slots (its instructions, skill and tool specs).
  const last = lastSlotParts.get(config);
  const made =
    last !== undefined && last.key === key && last.skillBody === skillBody && last.skillHop === skillHop && sameTools(last.toolSpecs, tools)
      ? last
      : slotPartsFor(config, skillBody, skillHop, tools, key);
  lastSlotParts.set(config, made);
  slotParts.set(assembly, made);
  return made;
}

function slotPartsFor(config: AgentConfig, skillBody: string, skillHop: string, toolSpecs: readonly ToolSpec[] | undefined, key: KeyObject | undefined): SlotParts {
  const agent = { kind: 'member' as const, id: config.member.id };
  const system: InputPart[] = [];
  if (config.systemPrompt !== '') system.push(slotPart('system', system.length, 'instructions', agent, config.systemPrompt, key));
  if (skillBody !== '') system.push(slotPart('system', system.length, 'skill', { kind: 'hop', id: skillHop }, skillBody, key));
  const tools = toolSpecs === undefined ? [] : [slotPart('tools', 0, 'tool_definitions', agent, safeStringify(toolSpecs), key)];
  return { key, system, tools, skillBody, skillHop, toolSpecs };
}

/** True when two tool lists give the model the same tools: names, descriptions and the very same schema objects. */
function sameTools(a: readonly ToolSpec[] | undefined, b: readonly ToolSpec[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.description !== y.description || x.inputSchema !== y.inputSchema) return false;
  }
  return true;
}
