/**
 * Where each message of a run came from (issue #36): the runtime keeps, beside every conversation
 * list of the run's store, a parallel list of origins (what kind of part, and what produced it), so
 * a model call can say of every message it sends where it came from (inputParts.ts). Kept in the
 * store, the origins travel with a checkpoint; on resume they become `checkpoint` origins with their
 * producers as they were (restoredStore()).
 *
 * A runner's answer travels between members as a plain string (a composition's flow state), so its
 * origin travels beside it as a store record: a composition hands each member, in its chart input,
 * the key of the record saying where the member's `message` came from (ChartInput.messageOrigin),
 * and the key under which the member records where its answer came from (ChartInput.answerTo).
 */
import type { InputOriginKind, InputProducer } from '../../events/index.js';
import type { LLMMessage } from './messages.js';
import type { SavedStore, RunStore } from './store.js';

/** Where one message came from: kept beside it in the run's store (plain JSON: a checkpoint saves it). */
export interface MessageOrigin {
  readonly origin: InputOriginKind;
  readonly producer: InputProducer;
  readonly restoredFrom?: Exclude<InputOriginKind, 'checkpoint' | 'conversation'>;
}

const ORIGINS_PREFIX = 'origins:';
const RECORD_PREFIX = 'origin:';

/** The list key last asked for and its origin list's key: made, flattened and hashed once per conversation, not at every call and append. */
let lastKey = '';
let lastOriginsKey = ORIGINS_PREFIX;

/** The key of the origin list beside the list `key`. */
function originsKey(key: string): string {
  if (key !== lastKey) {
    lastOriginsKey = ORIGINS_PREFIX + key;
    lastKey = key;
  }
  return lastOriginsKey;
}

/** Appends `messages` to the list `key` and their origins to its origin list, one each. */
export function appendWithOrigins(store: RunStore, key: string, messages: readonly LLMMessage[], origins: readonly MessageOrigin[]): void {
  store.append(key, ...messages);
  store.append(originsKey(key), ...origins);
}

/** Appends `messages` to the list `key`, every one of the same origin. */
export function appendFrom(store: RunStore, key: string, origin: MessageOrigin, ...messages: LLMMessage[]): void {
  store.append(key, ...messages);
  const origins = originsKey(key);
  for (let i = 0; i < messages.length; i++) store.append(origins, origin);
}

/**
 * The origins of the list `key`, one per message. A list kept without them (a checkpoint of an earlier
 * version) gets origins by role: the run's input, the model's output, a tool's result.
 */
export function originsOf(store: RunStore, key: string, runId: string): readonly MessageOrigin[] {
  const origins = store.list<MessageOrigin>(originsKey(key));
  const messages = store.list<LLMMessage>(key);
  if (origins.length === messages.length) return origins;
  const filled = [...origins];
  for (let i = origins.length; i < messages.length; i++) filled.push({ origin: roleOrigin(messages[i]!.role), producer: { kind: 'run', id: runId } });
  return filled;
}

/** What a message of `role` is when nothing else is known: the run's input, the model's output, a tool's result. */
export function roleOrigin(role: LLMMessage['role']): 'run_input' | 'model_output' | 'tool_result' {
  return role === 'assistant' ? 'model_output' : role === 'tool' ? 'tool_result' : 'run_input';
}

/** Records where a message or an answer came from, under `key` (a ChartInput.messageOrigin / answerTo key). */
export function keepOrigin(store: RunStore, key: string, origin: MessageOrigin): void {
  store.keep(key, origin);
}

/** The origin recorded under `key`, or undefined when none is. */
export function originAt(store: RunStore, key: unknown): MessageOrigin | undefined {
  return typeof key === 'string' ? store.record<MessageOrigin>(key) : undefined;
}

/** A fresh record key for an origin, unique in the run given a unique `token`. */
export function originKey(token: string, name: string): string {
  return `${RECORD_PREFIX}${token}:${name}`;
}

/** A model's answer handed to another member: its origin there. */
export function handoffFrom(producer: InputProducer): MessageOrigin {
  return { origin: 'handoff', producer };
}

/**
 * The saved store of a checkpoint, its messages' origins turned into `checkpoint` origins: each keeps
 * its producer and says what it was (a message already restored keeps what it was first).
 */
export function restoredStore(saved: SavedStore): SavedStore {
  const lists: Record<string, unknown[]> = {};
  for (const [key, items] of Object.entries(saved.lists)) {
    lists[key] = key.startsWith(ORIGINS_PREFIX) ? items.map((item) => asRestored(item as MessageOrigin)) : items;
  }
  return { lists, records: saved.records };
}

function asRestored(origin: MessageOrigin): MessageOrigin {
  const was = origin.restoredFrom ?? (origin.origin === 'checkpoint' || origin.origin === 'conversation' ? 'run_input' : origin.origin);
  return { origin: 'checkpoint', producer: origin.producer, restoredFrom: was };
}

/**
 * The tool call whose `execute` is being called right now (a runner run started there has it as its
 * input's producer). Set only for the synchronous part of the call: a run a tool starts before its
 * first await is found; one started after it is a run of its own (docs/api.md, Lineage, says so).
 */
let startingIn: InputProducer | undefined;

/** Calls `call` with `producer` as the tool call a runner run started inside it comes from. */
export function whileStartingIn<T>(producer: InputProducer, call: () => T): T {
  const before = startingIn;
  startingIn = producer;
  try {
    return call();
  } finally {
    startingIn = before;
  }
}

/** The tool call a run starting now was started in, if any. */
export function startedIn(): InputProducer | undefined {
  return startingIn;
}
