/**
 * Messages in and out of the conversation table: an append's input checked before any query (ids,
 * position, each message's shape, each one serialisable to JSON), and a stored row read back as a
 * message only if it is one.
 */
import { wellFormedProducers, type StoredConversation } from '../runtime/index.js';

/** A message as the store keeps it: the contract's message type (runtime/providers' Message). */
export type Message = StoredConversation['messages'][number];

/** An append ready for the table: each message as its JSON text. */
export interface Append {
  conversationId: string;
  runId: string;
  after: number;
  rows: string[];
  /** The run's instruments' carry as JSON text (kept on the run's first row). */
  carry: string;
  /** What produced each message (ConversationEntry.producers), one per row; null: the run. */
  producers: (string | null)[];
}

/** The highest position a thread can hold (seq is a PostgreSQL integer). */
const MAX_SEQ = 2_147_483_647;

/** The append, checked; a string says what is wrong with it. */
export function checkedAppend(conversationId: unknown, entry: unknown): Append | string {
  if (typeof conversationId !== 'string' || conversationId === '') return 'the conversation id must be a non-empty string';
  if (typeof entry !== 'object' || entry === null) return `conversation ${conversationId}: the entry must be { runId, after, messages }`;
  const { runId, after, messages, carry, producers } = entry as { runId?: unknown; after?: unknown; messages?: unknown; carry?: unknown; producers?: unknown };
  if (typeof runId !== 'string' || runId === '') return `conversation ${conversationId}: runId must be a non-empty string`;
  if (typeof after !== 'number' || !Number.isInteger(after) || after < 0) return `conversation ${conversationId}: after must be a whole number from 0, got ${String(after)}`;
  if (!Array.isArray(messages)) return `conversation ${conversationId}: messages must be an array`;
  if (after + messages.length - 1 > MAX_SEQ) return `conversation ${conversationId}: a thread holds at most ${MAX_SEQ + 1} messages`;
  const rows: string[] = [];
  for (const [index, message] of messages.entries()) {
    let json: string | undefined;
    try {
      json = isMessage(message) ? JSON.stringify(message) : undefined;
    } catch {
      json = undefined;
    }
    if (json === undefined) return `conversation ${conversationId}: message ${index} of run ${runId} is not a message (role, content) that JSON can hold`;
    rows.push(json);
  }
  const carried = carryJson(carry);
  if (carried === undefined) return `conversation ${conversationId}: the carry of run ${runId} is not an object JSON can hold`;
  const named = wellFormedProducers(producers, messages.length);
  if (producers !== undefined && named === undefined) {
    return `conversation ${conversationId}: the producers of run ${runId} must be one id (or null) per message`;
  }
  return { conversationId, runId, after, rows, carry: carried, producers: named ?? rows.map(() => null) };
}

/** The carry as JSON text ('{}' when none), or undefined when it is not a plain object JSON can hold. */
function carryJson(carry: unknown): string | undefined {
  if (carry === undefined) return '{}';
  if (typeof carry !== 'object' || carry === null || Array.isArray(carry)) return undefined;
  try {
    return JSON.stringify(carry);
  } catch {
    return undefined;
  }
}

/** The message a stored row holds, or undefined when it holds something else. */
export function readMessage(stored: unknown): Message | undefined {
  return isMessage(stored) ? stored : undefined;
}

const ROLES = new Set(['user', 'assistant', 'tool']);

function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false;
  const { role, content, toolCallId, toolCalls } = value as Record<string, unknown>;
  if (typeof role !== 'string' || !ROLES.has(role)) return false;
  if (typeof content !== 'string' && !(Array.isArray(content) && content.every(isPart))) return false;
  if (toolCallId !== undefined && typeof toolCallId !== 'string') return false;
  return toolCalls === undefined || (Array.isArray(toolCalls) && toolCalls.every(isToolCall));
}

function isPart(part: unknown): boolean {
  if (typeof part !== 'object' || part === null) return false;
  const { type, text, mediaType } = part as Record<string, unknown>;
  return (type === 'text' && typeof text === 'string') || (type === 'image' && typeof mediaType === 'string');
}

function isToolCall(call: unknown): boolean {
  if (typeof call !== 'object' || call === null) return false;
  const { id, name, args, signature, argsText } = call as Record<string, unknown>;
  const optionalText = (value: unknown) => value === undefined || typeof value === 'string';
  return typeof id === 'string' && typeof name === 'string' && typeof args === 'object' && args !== null && optionalText(signature) && optionalText(argsText);
}
