/**
 * The parts of a model call's input as llm_start.parts lists them (issue #36): size, estimated
 * tokens and keyed fingerprint of each message, with its origin. A turn sends its whole conversation
 * again at every call, and the conversation only grows, so a conversation's parts are kept by
 * position (ConversationParts): a later call pays one comparison per earlier message, no lookup,
 * hashing or measuring, and gets the very part object while its message, index and origin stay the
 * same. What is dear to compute again (a fingerprint) is kept beside the message object itself too
 * (a WeakMap: a message dropped by the run is dropped here too), for the message's next conversation,
 * and so is the size the conversation window's estimate asks for (agent/window.ts: the same numbers).
 */
import type { KeyObject } from 'node:crypto';
import type { InputPart, InputProducer } from '../../events/index.js';
import { fingerprint } from './fingerprint.js';
import type { MessageOrigin } from './lineage.js';
import type { LLMMessage, MessagePart } from './messages.js';
import { safeStringify } from './safeJson.js';

/** Tokens an image counts for in the estimate (it counts 0 characters). */
export const IMAGE_TOKEN_ESTIMATE = 1_000;

interface Measured {
  readonly chars: number;
  readonly tokens: number;
  /** The fingerprint under `key` (computed on first use with a key). */
  fingerprint?: string;
  key?: KeyObject;
}

const measured = new WeakMap<LLMMessage, Measured>();

/** The estimated tokens of `chars` characters of text: four to a token, rounded up. */
function textTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** A message's characters and estimated tokens, measured once per message object. */
export function measure(message: LLMMessage): Measured {
  let found = measured.get(message);
  if (found === undefined) {
    found = measureNow(message);
    measured.set(message, found);
  }
  return found;
}

/** A message's characters and estimated tokens, measured now. */
function measureNow(message: LLMMessage): Measured {
  const chars = messageChars(message);
  return { chars, tokens: messageTokens(message, chars) };
}

/** The characters a message sends: its text, and each tool call's name and arguments. */
function messageChars(message: LLMMessage): number {
  let chars = 0;
  // What a provider or a caller handed in is measured as it is: odd content counts nothing rather than failing the call.
  const content: unknown = message.content;
  if (typeof content === 'string') chars += content.length;
  else if (Array.isArray(content)) {
    for (const part of content as MessagePart[]) if (part?.type !== 'image' && typeof part?.text === 'string') chars += part.text.length;
  }
  // A model's arguments can be anything a provider parsed (even cyclic): measured as JSON that never throws.
  // A call kept as written (argsText: no JSON object) is sent as that text, not as its empty args.
  const calls = message.toolCalls;
  if (calls !== undefined) for (const call of calls) chars += String(call.name).length + (typeof call.argsText === 'string' ? call.argsText.length : safeStringify(call.args).length);
  return chars;
}

/** The estimated tokens of a message of `chars` characters: its text's, and a fixed estimate per image. */
function messageTokens(message: LLMMessage, chars: number): number {
  let images = 0;
  const content: unknown = message.content;
  if (Array.isArray(content)) for (const part of content as MessagePart[]) if (part?.type === 'image') images++;
  return textTokens(chars) + images * IMAGE_TOKEN_ESTIMATE;
}

/**
 * The parts made of one conversation's messages under one fingerprint key, by the message's position
 * in the conversation (which only grows): the same part object as the call before when its message,
 * index and origin are the same. Listeners must not change a part.
 */
export class ConversationParts {
  private readonly messages: LLMMessage[] = [];
  private readonly parts: InputPart[] = [];

  constructor(readonly key: KeyObject | undefined) {}

  /** The part of `message`, at `position` of the conversation, sent at `index` of the messages slot, from `origin`. */
  part(message: LLMMessage, position: number, index: number, origin: MessageOrigin): InputPart {
    const last = this.parts[position];
    let part: InputPart;
    if (last !== undefined && this.messages[position] === message) {
      if (last.index === index && last.origin === origin.origin && last.producer === origin.producer && last.restoredFrom === origin.restoredFrom) return last;
      // Another index (a window dropped older messages) or origin: the same numbers and fingerprint.
      part = messagePart(message, index, origin, last.chars, last.tokens);
      if (last.fingerprint !== undefined) part.fingerprint = last.fingerprint;
    } else {
      const key = this.key;
      if (key === undefined) {
        // Measured again in the message's next conversation: no record kept, none made.
        const chars = messageChars(message);
        part = messagePart(message, index, origin, chars, messageTokens(message, chars));
      } else {
        // A fingerprint is kept with the message, for its next conversation.
        const m = measure(message);
        part = messagePart(message, index, origin, m.chars, m.tokens);
        if (m.key !== key) {
          m.fingerprint = fingerprint(key, 'messages', canonicalMessage(message));
          m.key = key;
        }
        part.fingerprint = m.fingerprint;
      }
      this.messages[position] = message;
    }
    this.parts[position] = part;
    return part;
  }
}

function messagePart(message: LLMMessage, index: number, origin: MessageOrigin, chars: number, tokens: number): InputPart {
  return origin.restoredFrom === undefined
    ? { slot: 'messages', index, role: message.role, origin: origin.origin, producer: origin.producer, chars, tokens }
    : { slot: 'messages', index, role: message.role, origin: origin.origin, producer: origin.producer, restoredFrom: origin.restoredFrom, chars, tokens };
}

/** A part of the system slot or the tool list: text measured and fingerprinted as given (callers keep it per slot assembly). */
export function slotPart(slot: 'system' | 'tools', index: number, origin: 'instructions' | 'skill' | 'tool_definitions', producer: InputProducer, text: string, key: KeyObject | undefined): InputPart {
  const chars = text.length;
  const part: InputPart = { slot, index, role: 'system', origin, producer, chars, tokens: textTokens(chars) };
  if (key !== undefined) part.fingerprint = fingerprint(key, slot, text);
  return part;
}

/**
 * A message's content as one text, for its fingerprint: the text itself, or the JSON of its parts
 * (an image by its media type and its data or URL); an assistant message with tool calls, the JSON of
 * its content and its calls' names and arguments (not their ids, which differ from call to call).
 */
export function canonicalMessage(message: LLMMessage): string {
  const content = typeof message.content === 'string' ? message.content : Array.isArray(message.content) ? message.content.map(canonicalPart) : safeStringify(message.content);
  if (message.toolCalls === undefined || message.toolCalls.length === 0) return typeof content === 'string' ? content : JSON.stringify(content);
  return safeStringify({ content, toolCalls: message.toolCalls.map((call) => (call.argsText === undefined ? { name: call.name, args: call.args } : { name: call.name, argsText: call.argsText })) });
}

function canonicalPart(part: MessagePart): Record<string, string> {
  if (part?.type !== 'image') return { type: 'text', text: String(part?.text) };
  return part.data !== undefined ? { type: 'image', mediaType: part.mediaType, data: part.data } : { type: 'image', mediaType: part.mediaType, url: part.url ?? '' };
}
