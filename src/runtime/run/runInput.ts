/**
 * A run's input, read and checked at the call: a string or `{ message }` is one user message; a
 * conversation (messages: user, assistant with tool calls, tool results) is taken as given. A run's
 * chart is started with `{ message, thread? }`: `message` is the text of the last user message (what
 * compositions route and events report), `thread` the key of the run store's list that holds the whole
 * conversation to open with (the loaded thread and the input), present unless the input is one user
 * message of plain text (then `message` is all of it). Every runner's members read the same two keys
 * (docs/api.md says what each composition passes on).
 */
import type { ImagePart, LLMMessage, MessagePart } from './messages.js';
import { copyArgs, UNCOPYABLE_ARGS } from './copyArgs.js';
import { messageText, toolCallOf } from './messages.js';

/** The chart input every runner reads. */
export interface ChartInput {
  message: string;
  /** A run-store list key: the conversation to open with (its last user message is `message`). */
  thread?: string;
  /** A run-store record key: where `message` came from (run/lineage.ts's MessageOrigin). */
  messageOrigin?: string;
  /** A run-store record key: where the runner records where its answer came from, for whoever is handed it. */
  answerTo?: string;
}

/** The list where a run keeps the conversation it opens with. */
export const RUN_THREAD = 'run:thread';
/** Where a run records its input's origin, and where its top-level runner records its answer's (run/lineage.ts). */
export const RUN_INPUT_ORIGIN = 'origin:run:input';
export const RUN_ANSWER_ORIGIN = 'origin:run:answer';

/** The input as messages, or a TypeError saying what is wrong with it. */
export function inputMessages(input: unknown, method: string): LLMMessage[] | TypeError {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (Array.isArray(input)) {
    if (input.length === 0) return new TypeError(`${method}() got an empty conversation; give at least one message`);
    const messages: LLMMessage[] = [];
    for (let index = 0; index < input.length; index++) {
      const message: unknown = input[index];
      const problem = messageProblem(message);
      if (problem) return new TypeError(`${method}(): message ${index} ${problem}`);
      let copy: LLMMessage;
      try {
        copy = copyOf(message as LLMMessage);
      } catch {
        // structuredClone refuses a function or a symbol, and overflows the stack on arguments nested thousands deep.
        return new TypeError(`${method}(): message ${index} has a tool call whose args cannot be copied (${UNCOPYABLE_ARGS})`);
      }
      messages.push(copy);
    }
    return messages;
  }
  const message = (input as { message?: unknown } | null | undefined)?.message;
  if (typeof message === 'string') return [{ role: 'user', content: message }];
  return new TypeError(`${method}() takes a string, { message: string } or a conversation (an array of messages)`);
}

/** The text of the conversation's last user message ('' when it has none). */
export function lastUserText(messages: readonly LLMMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return messageText(messages[i]!.content);
  return '';
}

const ROLES = new Set(['user', 'assistant', 'tool']);

/** What is wrong with a message (a run's input, or one a conversation store loaded), or undefined when it is well formed. */
export function messageProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'is not an object';
  const m = value as Partial<Record<keyof LLMMessage, unknown>>;
  if (typeof m.role !== 'string' || !ROLES.has(m.role)) return `has role ${JSON.stringify(m.role)}; a role is 'user', 'assistant' or 'tool'`;
  if (typeof m.content === 'string') {
    // fine
  } else if (Array.isArray(m.content)) {
    for (const [index, part] of m.content.entries()) {
      const problem = partProblem(part);
      if (problem) return `has a bad part ${index}: ${problem}`;
    }
  } else {
    return 'has no content (a string, or an array of text and image parts)';
  }
  if (m.role === 'tool' && (typeof m.toolCallId !== 'string' || m.toolCallId === '')) return "is a 'tool' message without the toolCallId it answers";
  if (m.toolCalls !== undefined) {
    if (m.role !== 'assistant') return "has toolCalls but is not an 'assistant' message";
    if (!Array.isArray(m.toolCalls)) return 'has toolCalls that are not an array';
    for (const call of m.toolCalls as unknown[]) {
      const c = call as { id?: unknown; name?: unknown; args?: unknown; signature?: unknown; argsText?: unknown } | null;
      if (typeof c?.id !== 'string' || typeof c.name !== 'string' || typeof c.args !== 'object' || c.args === null || Array.isArray(c.args)) {
        return 'has a tool call without a string id, a string name and an args object';
      }
      if (c.signature !== undefined && typeof c.signature !== 'string') return 'has a tool call whose signature is not a string';
      if (c.argsText !== undefined && typeof c.argsText !== 'string') return 'has a tool call whose argsText is not a string';
    }
  }
  return undefined;
}

function partProblem(part: unknown): string | undefined {
  const p = part as Partial<Record<string, unknown>> | null;
  if (p?.type === 'text') return typeof p.text === 'string' ? undefined : 'a text part needs a string text';
  if (p?.type !== 'image') return "a part's type is 'text' or 'image'";
  const image = p as Partial<Record<keyof ImagePart, unknown>>;
  if (typeof image.mediaType !== 'string' || image.mediaType === '') return 'an image part needs its mediaType';
  const given = (typeof image.data === 'string' ? 1 : 0) + (typeof image.url === 'string' ? 1 : 0);
  if (given !== 1 || (image.data !== undefined && typeof image.data !== 'string') || (image.url !== undefined && typeof image.url !== 'string')) {
    return 'an image part has exactly one of data (base64) or url';
  }
  return undefined;
}

/** A copy the caller cannot change under the run. */
function copyOf(message: LLMMessage): LLMMessage {
  const copy: LLMMessage = {
    role: message.role,
    content: typeof message.content === 'string' ? message.content : message.content.map((part): MessagePart => ({ ...part })),
  };
  if (message.toolCallId !== undefined) copy.toolCallId = message.toolCallId;
  if (message.toolCalls !== undefined) copy.toolCalls = message.toolCalls.map((call) => toolCallOf(call.id, call.name, copyArgs(call.args), call));
  return copy;
}
