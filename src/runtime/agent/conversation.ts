/**
 * An agent turn's conversation. It only grows, and footprintjs copies the whole state on every stage
 * that writes, so it lives in the run's store (run/store.ts) under the turn's `historyKey`: each
 * message is appended once and never copied by the engine.
 */
import type { LLMMessage } from '../providers/index.js';
import type { Turn } from './state.js';
import type { AgentScope } from './stages/scope.js';
import type { RunStore } from '../run/index.js';
import { runStore, turnRecordKey } from './turn.js';

/** The conversation so far, as a copy: a request or an event holding it must not see later messages. */
export function conversation(scope: AgentScope, turn: Turn): LLMMessage[] {
  return [...runStore(scope).list<LLMMessage>(turn.historyKey)];
}

/** What the turn `turnId` added to its conversation after it opened (undefined: no such turn in `store`). */
export function turnAddedMessages(store: RunStore, turnId: string): LLMMessage[] | undefined {
  const turn = store.record<Turn>(turnRecordKey(turnId));
  return turn && store.list<LLMMessage>(turn.historyKey).slice(turn.openedWith);
}

/** The validated structured output of a turn kept in `store` (AgentOptions.output). */
export function turnOutput(store: RunStore, turnId: string): unknown {
  return store.record<Turn>(turnRecordKey(turnId))?.output;
}

export function appendToConversation(scope: AgentScope, turn: Turn, ...messages: LLMMessage[]): void {
  runStore(scope).append(turn.historyKey, ...messages);
}
