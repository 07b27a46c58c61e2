/**
 * What is in flight right now, by key: the model and tool calls of a run between their start and
 * end events, the stage spans that are running. A few at a time, so a list searched from its newest
 * entry serves: a Map whose entries come and go re-allocates its table every few entries (about 120
 * bytes each time, garbage on every call and stage), the list keeps its arrays.
 */
export class OpenList<K, V> {
  private readonly keys: K[] = [];
  private readonly values: V[] = [];

  get(key: K): V | undefined {
    const at = this.indexOf(key);
    return at < 0 ? undefined : this.values[at];
  }

  set(key: K, value: V): void {
    const at = this.indexOf(key);
    if (at >= 0) {
      this.values[at] = value;
      return;
    }
    this.keys.push(key);
    this.values.push(value);
  }

  /** Removes `key`'s entry, keeping the others in the order they came. */
  delete(key: K): boolean {
    const at = this.indexOf(key);
    if (at < 0) return false;
    const last = this.keys.length - 1;
    for (let i = at; i < last; i++) {
      this.keys[i] = this.keys[i + 1]!;
      this.values[i] = this.values[i + 1]!;
    }
    this.keys.pop();
    this.values.pop();
    return true;
  }

  /** Entries in the order they came (what to walk when every entry is wanted). */
  entries(): [K, V][] {
    return this.keys.map((key, i) => [key, this.values[i]!]);
  }

  private indexOf(key: K): number {
    for (let i = this.keys.length - 1; i >= 0; i--) if (this.keys[i] === key) return i;
    return -1;
  }
}
