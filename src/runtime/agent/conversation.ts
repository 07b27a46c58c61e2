/**
 * An agent turn's conversation. It only grows, and footprintjs copies the whole state on every stage
 * that writes, so it lives in the run's store (run/store.ts) under the turn's `historyKey`: each
 * message is appended once and never copied by the engine, with its origin beside it (run/lineage.ts).
 */
import type { LLMMessage } from '../providers/index.js';
import type { Turn } from './state.js';
import type { StageScope } from './stages/scope.js';
import { appendFrom, appendWithOrigins, currentRun, originsOf, type MessageOrigin, type RunStore } from '../run/index.js';
import { runStore, topTurn } from './turn.js';

/** The conversation so far, as a copy: a request or an event holding it must not see later messages. */
export function conversation(scope: StageScope, turn: Turn): LLMMessage[] {
  return [...runStore(scope).list<LLMMessage>(turn.historyKey)];
}

/** What the top-level agent's turn `turnId` added to its conversation after it opened (undefined: no such turn in `store`). */
export function turnAddedMessages(store: RunStore, turnId: string): LLMMessage[] | undefined {
  const turn = topTurn(store, turnId);
  return turn && store.list<LLMMessage>(turn.historyKey).slice(turn.openedWith);
}

/** The origins of what the turn `turnId` added, one per message of turnAddedMessages(). */
export function turnAddedOrigins(store: RunStore, turnId: string, runId: string): readonly MessageOrigin[] | undefined {
  const turn = topTurn(store, turnId);
  return turn && originsOf(store, turn.historyKey, runId).slice(turn.openedWith);
}

/** The validated structured output of the top-level agent's turn `turnId` (AgentOptions.output). */
export function turnOutput(store: RunStore, turnId: string): unknown {
  return topTurn(store, turnId)?.output;
}

/** Where each message of the conversation came from, one origin per message. */
export function conversationOrigins(scope: StageScope, turn: Turn): readonly MessageOrigin[] {
  return originsOf(runStore(scope), turn.historyKey, currentRun(scope)!.runId);
}

/** Appends messages of one origin. */
export function appendToConversation(scope: StageScope, turn: Turn, origin: MessageOrigin, ...messages: LLMMessage[]): void {
  appendFrom(runStore(scope), turn.historyKey, origin, ...messages);
}

/** Appends messages, each with its own origin. */
export function appendEach(scope: StageScope, turn: Turn, messages: readonly LLMMessage[], origins: readonly MessageOrigin[]): void {
  appendWithOrigins(runStore(scope), turn.historyKey, messages, origins);
}
