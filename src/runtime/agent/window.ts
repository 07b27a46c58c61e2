/**
 * The conversation window: what of a long conversation an agent sends to its model. The thread itself
 * is kept whole (the run's store, a ConversationStore); the window only bounds the request, by a count
 * of messages, an estimate of tokens, or both (the tighter wins). It drops the oldest messages and
 * always starts at a user message, so no tool result is sent without the call it answers; the
 * conversation's last user message and what follows it are always sent, even over the bound.
 * When it drops something, the model call says so (gen_ai.conversation.compacted on the chat span,
 * and footprint.conversation.compacted).
 */
import { ConfigError, measure, numberSetting } from '../run/index.js';
import type { LLMMessage } from '../providers/index.js';

export interface ConversationWindow {
  /** At most this many messages are sent (1 to 1 000 000). */
  maxMessages?: number;
  /** At most this many tokens, by estimateTokens(), are sent (1 to 100 000 000). */
  maxTokens?: number;
}

/**
 * A rough token count of a message: its characters (text, tool call names and arguments) over four,
 * rounded up, and IMAGE_TOKEN_ESTIMATE per image. An estimate, not the model's tokenizer; measured
 * once per message (run/inputParts.ts, where llm_start.parts get the same numbers).
 */
export function estimateTokens(message: LLMMessage): number {
  return measure(message).tokens;
}

/** What the window let through, and what it dropped (0: the whole conversation). */
export interface Windowed {
  messages: LLMMessage[];
  dropped: number;
  estimatedTokens: number;
}

export function applyWindow(messages: LLMMessage[], window: ConversationWindow): Windowed {
  const n = messages.length;
  let start = window.maxMessages === undefined ? 0 : Math.max(0, n - window.maxMessages);
  const tokens = messages.map(estimateTokens);
  if (window.maxTokens !== undefined) {
    let total = 0;
    let fits = n;
    while (fits > 0 && total + tokens[fits - 1]! <= window.maxTokens) total += tokens[--fits]!;
    start = Math.max(start, fits);
  }
  while (start < n && messages[start]!.role !== 'user') start++;
  let lastUser = n - 1;
  while (lastUser > 0 && messages[lastUser]!.role !== 'user') lastUser--;
  if (start > lastUser) start = Math.max(0, lastUser);
  let estimatedTokens = 0;
  for (let i = start; i < n; i++) estimatedTokens += tokens[i]!;
  return { messages: start === 0 ? messages : messages.slice(start), dropped: start, estimatedTokens };
}

/** The window option checked (ConfigError when it cannot work); undefined when not given. */
export function checkedWindow(owner: string, value: unknown): ConversationWindow | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) throw new ConfigError(`${owner}: window must be an object ({ maxMessages?, maxTokens? })`, { field: 'window' });
  const given = value as Record<string, unknown>;
  const window: ConversationWindow = {};
  if (given.maxMessages !== undefined) window.maxMessages = numberSetting(owner, 'window.maxMessages', given.maxMessages, { min: 1, max: 1_000_000, integer: true }, 0);
  if (given.maxTokens !== undefined) window.maxTokens = numberSetting(owner, 'window.maxTokens', given.maxTokens, { min: 1, max: 100_000_000, integer: true }, 0);
  if (window.maxMessages === undefined && window.maxTokens === undefined) {
    throw new ConfigError(`${owner}: window needs maxMessages, maxTokens or both`, { field: 'window' });
  }
  return window;
}
