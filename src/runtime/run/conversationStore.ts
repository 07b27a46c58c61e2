/**
 * Where conversations are kept between runs: a thread of messages by id, read when a run starts and
 * appended to when it ends (round5 contract). Appends are idempotent per run and refuse a position
 * another run already wrote, so a retry after a lost reply never appends twice and two runs that
 * loaded the same thread cannot both extend it.
 *
 * The message shape here is the one of runtime/providers (LLMMessage: role, content, toolCallId,
 * toolCalls), written out because run/ sits below providers/.
 */
import type { RunResult } from './result.js';

/** A message as a conversation keeps it: providers' LLMMessage. */
export interface ConversationMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string | readonly ({ readonly type: 'text'; readonly text: string } | { readonly type: 'image'; readonly mediaType: string; readonly data?: string; readonly url?: string })[];
  toolCallId?: string;
  toolCalls?: { id: string; name: string; args: Record<string, unknown> }[];
}

export interface StoredConversation {
  readonly messages: readonly ConversationMessage[];
}

export interface ConversationStore {
  /** The whole thread, oldest first; an unknown id is an empty thread. */
  load(conversationId: string, options?: { signal?: AbortSignal }): Promise<StoredConversation>;
  /**
   * Appends one run's new messages at position `after` (the thread length the run loaded).
   * Idempotent per runId: the same runId at the same position again is a no-op (a retry after a lost
   * reply never appends twice). Another run already wrote at `after`: ConversationConflictError.
   */
  append(
    conversationId: string,
    entry: { runId: string; after: number; messages: readonly ConversationMessage[] },
    options?: { signal?: AbortSignal },
  ): Promise<void>;
}

/** Why a conversation store call failed. */
export type ConversationStoreErrorCode = 'unavailable' | 'timeout' | 'conflict' | 'malformed';

/**
 * A conversation store call that failed: the store could not be reached ('unavailable'), did not
 * answer in time ('timeout'), the thread was extended by another run ('conflict'), or a message or a
 * stored row is not a message ('malformed'). When a run's append fails, `result` holds the whole run
 * result, so nothing is lost: append its messages again (idempotent per runId).
 */
export class ConversationStoreError extends Error {
  override readonly name: string = 'ConversationStoreError';
  readonly code: ConversationStoreErrorCode;
  /** The low-cardinality error.type of the failure: its code. */
  readonly errorType: string;
  readonly result?: RunResult;
  constructor(message: string, code: ConversationStoreErrorCode, options: { cause?: unknown; result?: RunResult } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.errorType = code;
    this.result = options.result;
  }
}

/** Another run already appended at the position this run loaded: the thread moved on without it. */
export class ConversationConflictError extends ConversationStoreError {
  override readonly name: string = 'ConversationConflictError';
  constructor(
    readonly conversationId: string,
    readonly after: number,
    message: string,
    options: { cause?: unknown; result?: RunResult } = {},
  ) {
    super(message, 'conflict', options);
  }
}
