/**
 * A run's conversation in its ConversationStore: the thread loaded before the chart starts, with the
 * origin of each loaded message (issue #36: the run that appended it, from the store's entries), and
 * the run's new messages appended when it ends, with what its instruments carry. A store's failure is
 * a ConversationStoreError; at the append it carries the run's whole result, so nothing is lost.
 */
import type { InputProducer } from '../../events/index.js';
import { ConversationStoreError, wellFormedProducers, type ConversationStore } from './conversationStore.js';
import { describeError } from './errors.js';
import { roleOrigin, type MessageOrigin } from './lineage.js';
import type { LLMMessage } from './messages.js';
import type { RunResult } from './result.js';
import { messageProblem } from './runInput.js';

/** One run's entry in a loaded thread: `producers` one per message (null: the run), or none kept. */
interface LoadedRun {
  runId: string;
  messages: number;
  carry: Record<string, unknown>;
  producers?: readonly (string | null)[];
}

/** A loaded thread: its messages, and the runs that appended them (empty when the store keeps none). */
export interface LoadedThread {
  messages: readonly LLMMessage[];
  runs: readonly LoadedRun[];
}

export async function loadThread(store: ConversationStore, conversationId: string, signal: AbortSignal | undefined): Promise<LoadedThread> {
  let loaded: unknown;
  try {
    loaded = await store.load(conversationId, signal ? { signal } : undefined);
  } catch (error) {
    throw storeFailure(error, `conversation ${JSON.stringify(conversationId)}: the conversation store failed to load it`);
  }
  const messages = (loaded as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) {
    throw new ConversationStoreError(`conversation ${JSON.stringify(conversationId)}: the conversation store's load gave no messages array`, 'malformed');
  }
  // What a store gives is checked as a run's input is: a message that is none is the store's fault, not a model call's.
  for (const [index, message] of messages.entries()) {
    const problem = messageProblem(message);
    if (problem) throw new ConversationStoreError(`conversation ${JSON.stringify(conversationId)}: the conversation store's load gave a malformed thread: message ${index} ${problem}`, 'malformed');
  }
  return { messages: messages as LLMMessage[], runs: storedRuns((loaded as { runs?: unknown }).runs, messages.length) };
}

/** A store's `runs`, when they are whole and account for every message; else none (producers then unknown). */
function storedRuns(runs: unknown, messages: number): LoadedThread['runs'] {
  if (!Array.isArray(runs)) return [];
  const whole: LoadedRun[] = [];
  let counted = 0;
  for (const entry of runs as { runId?: unknown; messages?: unknown; carry?: unknown; producers?: unknown }[]) {
    if (typeof entry?.runId !== 'string' || typeof entry.messages !== 'number' || !Number.isInteger(entry.messages) || entry.messages < 0) return [];
    const carry = typeof entry.carry === 'object' && entry.carry !== null && !Array.isArray(entry.carry) ? (entry.carry as Record<string, unknown>) : {};
    // Producers that are not one id (or null) per message are none: the run is then every message's producer.
    const producers = wellFormedProducers(entry.producers, entry.messages);
    whole.push(producers ? { runId: entry.runId, messages: entry.messages, carry, producers } : { runId: entry.runId, messages: entry.messages, carry });
    counted += entry.messages;
  }
  return counted === messages ? whole : [];
}

/**
 * The origins of a loaded thread's messages: each loaded from the conversation (what it was, by its
 * role), produced by what the entry names (a model call, a tool call of the run that appended it),
 * else by that run; a store that keeps no runs leaves the run unknown ('').
 */
export function conversationOrigins(loaded: LoadedThread): MessageOrigin[] {
  const origins: MessageOrigin[] = [];
  let at = 0;
  for (const { runId, messages, producers } of loaded.runs.length > 0 ? loaded.runs : [{ runId: '', messages: loaded.messages.length }] as LoadedRun[]) {
    const run: InputProducer = { kind: 'run', id: runId, runId };
    for (let i = 0; i < messages; i++, at++) {
      const named = producers?.[i];
      // A tool call's id is `${callId}:${toolCallId}`; a model call's has no colon.
      const producer: InputProducer = typeof named === 'string' ? { kind: named.includes(':') ? 'tool_call' : 'model_call', id: named, runId } : run;
      origins.push({ origin: 'conversation', producer, restoredFrom: roleOrigin(loaded.messages[at]!.role) });
    }
  }
  return origins;
}

/**
 * What produced each of a run's new messages, as its conversation entry keeps it: a model call's or
 * tool call's id of this run, else null (the run: its input, a member's own words).
 */
export function producersOf(origins: readonly (MessageOrigin | undefined)[]): (string | null)[] {
  return origins.map((origin) => {
    const producer = origin?.producer;
    // A producer of another run (runId set) is not this run's; one restored at a resume is (same run).
    return producer !== undefined && producer.runId === undefined && (producer.kind === 'model_call' || producer.kind === 'tool_call') ? producer.id : null;
  });
}

/** Appends the run's new messages (with its instruments' carry); a failure rejects the run with ConversationStoreError carrying the result. */
export async function appendRun(
  store: ConversationStore,
  conversationId: string,
  { runId, after, carry, producers }: { runId: string; after: number; carry: Record<string, unknown>; producers: readonly (string | null)[] },
  result: RunResult,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await store.append(conversationId, { runId, after, messages: result.messages, carry, producers }, signal ? { signal } : undefined);
  } catch (error) {
    const failure = storeFailure(error, `conversation ${JSON.stringify(conversationId)}: the conversation store failed to append run ${runId}'s messages`);
    failure.result = result;
    throw failure;
  }
}

/** A store's failure as a ConversationStoreError (its own typed errors pass as they are). */
function storeFailure(error: unknown, what: string): ConversationStoreError {
  if (error instanceof ConversationStoreError) return error;
  return new ConversationStoreError(`${what} (${describeError(error)})`, 'unavailable', { cause: error });
}
