/**
 * An agent turn's conversation. It only grows, and footprintjs copies the whole state on every stage
 * that writes, so it lives in the run's store (run/store.ts) under the turn's `historyKey` and the
 * state holds just that key: each message is appended once and never copied by the engine.
 */
import { currentHub, type RunStore } from '../run/index.js';
import type { LLMMessage } from '../providers/index.js';
import type { AgentScope } from './stages/scope.js';

/** The conversation so far, as a copy: a request or an event holding it must not see later messages. */
export function conversation(scope: AgentScope): LLMMessage[] {
  return [...store(scope).list<LLMMessage>(scope.historyKey)];
}

export function appendToConversation(scope: AgentScope, ...messages: LLMMessage[]): void {
  store(scope).append(scope.historyKey, ...messages);
}

function store(scope: AgentScope): RunStore {
  const hub = currentHub(scope);
  if (!hub) throw new Error('an agent turn runs inside a runner run (Runner.run or resume), which provides its store');
  return hub.store;
}
