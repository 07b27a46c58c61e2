/**
 * A run's conversation in its ConversationStore: the thread loaded before the chart starts, with the
 * origin of each loaded message (issue #36: the run that appended it, from the store's entries), and
 * the run's new messages appended when it ends, with what its instruments carry. A store's failure is
 * a ConversationStoreError; at the append it carries the run's whole result, so nothing is lost.
 */
import type { InputProducer } from '../../events/index.js';
import { ConversationStoreError, type ConversationStore } from './conversationStore.js';
import { describeError } from './errors.js';
import { byRole, type MessageOrigin } from './lineage.js';
import type { LLMMessage } from './messages.js';
import type { RunResult } from './result.js';

/** A loaded thread: its messages, and the runs that appended them (empty when the store keeps none). */
export interface LoadedThread {
  messages: readonly LLMMessage[];
  runs: readonly { runId: string; messages: number; carry: Record<string, unknown> }[];
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
  return { messages: messages as LLMMessage[], runs: storedRuns((loaded as { runs?: unknown }).runs, messages.length) };
}

/** A store's `runs`, when they are whole and account for every message; else none (producers then unknown). */
function storedRuns(runs: unknown, messages: number): LoadedThread['runs'] {
  if (!Array.isArray(runs)) return [];
  const whole: { runId: string; messages: number; carry: Record<string, unknown> }[] = [];
  let counted = 0;
  for (const entry of runs as { runId?: unknown; messages?: unknown; carry?: unknown }[]) {
    if (typeof entry?.runId !== 'string' || typeof entry.messages !== 'number' || !Number.isInteger(entry.messages) || entry.messages < 0) return [];
    const carry = typeof entry.carry === 'object' && entry.carry !== null && !Array.isArray(entry.carry) ? (entry.carry as Record<string, unknown>) : {};
    whole.push({ runId: entry.runId, messages: entry.messages, carry });
    counted += entry.messages;
  }
  return counted === messages ? whole : [];
}

/**
 * The origins of a loaded thread's messages: each loaded from the conversation, produced by the run
 * that appended it (what it was, by its role); a store that keeps no runs leaves the run unknown ('').
 */
export function conversationOrigins(loaded: LoadedThread): MessageOrigin[] {
  const origins: MessageOrigin[] = [];
  let at = 0;
  for (const { runId, messages } of loaded.runs.length > 0 ? loaded.runs : [{ runId: '', messages: loaded.messages.length }]) {
    const producer: InputProducer = { kind: 'run', id: runId, runId };
    for (const end = at + messages; at < end; at++) {
      origins.push({ origin: 'conversation', producer, restoredFrom: byRole(loaded.messages[at]!.role, producer).origin as MessageOrigin['restoredFrom'] });
    }
  }
  return origins;
}

/** Appends the run's new messages (with its instruments' carry); a failure rejects the run with ConversationStoreError carrying the result. */
export async function appendRun(
  store: ConversationStore,
  conversationId: string,
  { runId, after, carry }: { runId: string; after: number; carry: Record<string, unknown> },
  result: RunResult,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await store.append(conversationId, { runId, after, messages: result.messages, carry }, signal ? { signal } : undefined);
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
