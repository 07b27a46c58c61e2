/**
 * The run-local store: a run's data kept out of the footprintjs state. footprintjs copies the whole
 * state (structuredClone, several times) on every stage that writes and reads it through a scope
 * proxy, so data that only grows, or that stages change at every step, costs the engine again and
 * again there. Here it costs nothing between stages:
 *   - lists, append-only (an agent turn's conversation): each item is appended once;
 *   - records, one owner's working state (an agent turn's record, agent/turn.ts): a plain object its
 *     stages read and change directly.
 * The flow state holds only the keys. A pause saves the store in the checkpoint next to the flow
 * state, a resume restores it.
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
    else this.lists.set(key, [...items]);
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
