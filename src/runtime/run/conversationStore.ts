/**
 * Where conversations are kept between runs. A run given a `conversationId` loads the thread before it
 * starts (what the model sees first) and appends the run's new messages when it ends, at the position
 * it loaded: two runs that loaded the same thread cannot both append (the second gets
 * ConversationConflictError), and a retried append of the same run is a no-op, so a reply lost on
 * the way never doubles a turn. The in-memory store keeps threads for the life of the process; the
 * `postgres` entry keeps them in PostgreSQL. Any other database implements the same two calls.
 */
import { markOwnText } from '../../events/index.js';
import type { LLMMessage } from './messages.js';
import type { RunResult } from './result.js';

export interface StoredConversation {
  readonly messages: readonly LLMMessage[];
  /**
   * The runs that appended the messages, oldest first: each run's id, how many messages it appended
   * and its instruments' carry. Optional: a store that keeps none leaves the messages' producers unknown.
   */
  readonly runs?: readonly ConversationEntry[];
}

/** One run's append to a conversation, as a store keeps it. */
export interface ConversationEntry {
  readonly runId: string;
  /** How many messages the run appended. */
  readonly messages: number;
  /** What the run's instruments carried (RunSession.appending); `{}` when none. */
  readonly carry: Record<string, unknown>;
  /**
   * What produced each message the run appended, in the run (issue #36): a model call's id, a tool
   * call's `${callId}:${toolCallId}`, or null where the run itself is the producer (its input). Optional:
   * without it the run is the producer of every message it appended.
   */
  readonly producers?: readonly (string | null)[];
}


export interface ConversationStore {
  /** The whole thread, oldest first; an unknown id is an empty thread. */
  load(conversationId: string, options?: { signal?: AbortSignal }): Promise<StoredConversation>;
  /**
   * Appends one run's new messages at position `after` (the thread length the run loaded).
   * Idempotent per runId: the same runId at the same position again is a no-op (a retry after a lost
   * reply never appends twice). Another run already wrote at `after`: ConversationConflictError.
   * `producers`, one per message, is kept as the entry's (ConversationEntry.producers) by a store that can.
   */
  append(
    conversationId: string,
    entry: { runId: string; after: number; messages: readonly LLMMessage[]; carry?: Record<string, unknown>; producers?: readonly (string | null)[] },
    options?: { signal?: AbortSignal },
  ): Promise<void>;
}

/** Why a conversation store call failed. */
export type ConversationStoreErrorCode = 'unavailable' | 'timeout' | 'conflict' | 'malformed';

/**
 * A conversation store call failed. Thrown by run() when the append at the run's end fails: then
 * `result` holds the whole RunResult (its `messages` included), so nothing is lost and the app may
 * append again (idempotent per runId).
 */
export class ConversationStoreError extends Error {
  override readonly name: string = 'ConversationStoreError';
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
  /** The run's result, when the run finished and only its append failed. */
  result?: RunResult;
  /** The low-cardinality error.type of the failure: its code. */
  readonly errorType: string;

  constructor(
    message: string,
    readonly code: ConversationStoreErrorCode,
    options: { cause?: unknown; result?: RunResult } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.errorType = code;
    this.result = options.result;
  }
}

/** Another run appended at the position this run loaded: the thread moved on under it. */
export class ConversationConflictError extends ConversationStoreError {
  override readonly name = 'ConversationConflictError';
  /** `why`: what the store found at the position (e.g. "another run appended there (the thread now has 3 messages)"). */
  constructor(
    readonly conversationId: string,
    readonly after: number,
    why: string,
  ) {
    super(`conversation ${JSON.stringify(conversationId)}: cannot append at position ${after}: ${why}; load it again`, 'conflict');
  }
}

interface Thread {
  messages: LLMMessage[];
  /** Which run appended at which position, for idempotent retries. */
  appended: Map<string, number>;
  runs: ConversationEntry[];
}

/** Threads kept in this process, as copies (what a caller changes later does not change the thread). */
export class MemoryConversationStore implements ConversationStore {
  private readonly threads = new Map<string, Thread>();

  async load(conversationId: string): Promise<StoredConversation> {
    const thread = this.threads.get(conversationId);
    return { messages: structuredClone(thread?.messages ?? []), runs: structuredClone(thread?.runs ?? []) };
  }

  async append(conversationId: string, entry: { runId: string; after: number; messages: readonly LLMMessage[]; carry?: Record<string, unknown>; producers?: readonly (string | null)[] }): Promise<void> {
    const thread = this.threads.get(conversationId) ?? { messages: [], appended: new Map<string, number>(), runs: [] };
    if (thread.appended.get(entry.runId) === entry.after) return;
    const length = thread.messages.length;
    if (length > entry.after) throw new ConversationConflictError(conversationId, entry.after, `another run appended there (the thread now has ${length} messages)`);
    // Shorter than the run loaded: not another run's doing (a resume in a process given another store, a thread cut short).
    if (length < entry.after) throw new ConversationConflictError(conversationId, entry.after, `the thread holds ${length} messages, not the ${entry.after} the run loaded`);
    thread.messages.push(...structuredClone(entry.messages as LLMMessage[]));
    thread.appended.set(entry.runId, entry.after);
    const kept: ConversationEntry = { runId: entry.runId, messages: entry.messages.length, carry: structuredClone(entry.carry ?? {}) };
    const producers = wellFormedProducers(entry.producers, entry.messages.length);
    thread.runs.push(producers ? { ...kept, producers } : kept);
    this.threads.set(conversationId, thread);
  }
}

/** A run's producers when there is one per message, each an id or null (a copy); else undefined. */
export function wellFormedProducers(producers: unknown, messages: number): (string | null)[] | undefined {
  if (!Array.isArray(producers) || producers.length !== messages) return undefined;
  return producers.every((id) => id === null || typeof id === 'string') ? [...(producers as (string | null)[])] : undefined;
}

/** The store a run uses when its options name none: one per process. */
export const processConversationStore: ConversationStore = new MemoryConversationStore();
