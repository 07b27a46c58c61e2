/**
 * The run-local store: a run's data kept out of the footprintjs state. footprintjs copies the whole
 * state (structuredClone, several times) on every stage that writes and reads it through a scope
 * proxy, so data that only grows, or that stages change at every step, costs the engine again and
 * again there. Here it costs nothing between stages:
 *   - lists, append-only (an agent turn's conversation): each item is appended once;
 *   - records, one owner's working state (an agent turn's record, agent/turn.ts): a plain object its
 *     stages read and change directly.
 * The flow state holds only the keys. A pause saves the store in the checkpoint next to the flow
 * state, a resume restores it. The owner of a kind of record says what a whole one is (RecordKind), so
 * a checkpoint missing parts is refused when it is read, before it is claimed (checkpoint.ts).
 */
export interface SavedStore {
  lists: Record<string, unknown[]>;
  records: Record<string, unknown>;
}

export class RunStore {
  private readonly lists = new Map<string, unknown[]>();
  private readonly records = new Map<string, unknown>();

  constructor(saved?: SavedStore) {
    for (const [key, items] of Object.entries(saved?.lists ?? {})) this.lists.set(key, [...items]);
    for (const [key, record] of Object.entries(saved?.records ?? {})) this.records.set(key, structuredClone(record));
  }

  /** The items under `key`, in append order (empty when nothing was appended). Do not mutate. */
  list<T>(key: string): readonly T[] {
    return (this.lists.get(key) ?? []) as T[];
  }

  append<T>(key: string, ...items: T[]): void {
    const list = this.lists.get(key);
    if (list) list.push(...items);
    // The rest parameter is an array of its own: it becomes the list.
    else this.lists.set(key, items);
  }

  /** The record under `key` (undefined when none was kept): the owner's own object, changed in place. */
  record<T extends object>(key: string): T | undefined {
    return this.records.get(key) as T | undefined;
  }

  /** Keeps `record` under `key`; it must stay plain JSON, since a pause saves it. */
  keep<T extends object>(key: string, record: T): T {
    this.records.set(key, record);
    return record;
  }

  /** Everything stored, as plain data for a checkpoint (copies: the run may go on changing its records). */
  save(): SavedStore {
    return {
      lists: Object.fromEntries([...this.lists].map(([key, items]) => [key, [...items]])),
      records: Object.fromEntries([...this.records].map(([key, record]) => [key, structuredClone(record)])),
    };
  }
}

/**
 * A kind of record an owner keeps in the store (an agent's turn: agent/turn.ts), so a saved store can
 * be checked without knowing its owners: every record under `prefix` must be whole (`problem`), and
 * when the run paused in a stage of the kind's owner, the record that stage needs to go on
 * (`pausedRecord`) must be kept. A run paused elsewhere (a user's Runner calling footprintjs's
 * interrupt()) needs none.
 */
export interface RecordKind {
  /** The key prefix of the kind's records: `turn:/`. */
  prefix: string;
  /**
   * The key of the record the stage that paused resumes with, given where it paused (`place`, the key
   * of its subflow: '' the top-level chart; `stageId`, its subflow-prefixed stage id); undefined when
   * that stage is not one of the kind's owner.
   */
  pausedRecord(place: string, stageId: string): string | undefined;
  /** What is wrong with a saved record (the whole store at hand for what it refers to), or undefined when it is whole. */
  problem(record: unknown, store: SavedStore): string | undefined;
}

const recordKinds: RecordKind[] = [];

/** Declares a kind of record, once, where its owner's module is loaded. */
export function defineRecordKind(kind: RecordKind): void {
  if (!recordKinds.some((known) => known.prefix === kind.prefix)) recordKinds.push(kind);
}

/** Where a run paused: the key of the subflow ('' the top-level chart) and the stage's subflow-prefixed id. */
export interface PausedAt {
  place: string;
  stageId: string;
}

/** What is missing or broken in a saved store, judged by every declared record kind, or undefined when it is whole. */
export function savedStoreProblem(store: SavedStore, paused: PausedAt): string | undefined {
  for (const kind of recordKinds) {
    const needed = kind.pausedRecord(paused.place, paused.stageId);
    if (needed !== undefined && !Object.hasOwn(store.records, needed)) return `has no record "${needed}", which its paused stage resumes with`;
    for (const [key, record] of Object.entries(store.records)) {
      if (!key.startsWith(kind.prefix)) continue;
      const problem = kind.problem(record, store);
      if (problem !== undefined) return `record "${key}" is malformed: ${problem}`;
    }
  }
  return undefined;
}
