/**
 * The run-local store: large, append-only data of one run (an agent turn's conversation) kept out
 * of the footprintjs state. footprintjs copies the whole state on every stage that writes, so data
 * that only grows would be copied again and again; here it is appended once, and the state holds
 * only the key to it. A pause saves the store in the checkpoint next to the flow state, a resume
 * restores it.
 */
export type SavedStore = Record<string, unknown[]>;

export class RunStore {
  private readonly lists = new Map<string, unknown[]>();

  constructor(saved?: SavedStore) {
    for (const [key, items] of Object.entries(saved ?? {})) this.lists.set(key, [...items]);
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

  /** Everything stored, as plain data for a checkpoint. */
  save(): SavedStore {
    return Object.fromEntries([...this.lists].map(([key, items]) => [key, [...items]]));
  }
}
