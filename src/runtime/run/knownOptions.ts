/**
 * Option objects checked for names they do not have. A misspelt option (`maxIteration`, `baseUrl`,
 * `sessionId`) would otherwise be a setting silently left at its default: TypeScript reports it only
 * in an object literal, never in JavaScript or for an object built elsewhere. It is a ConfigError
 * naming it, and the option it most resembles. Each list of names is checked against its options
 * interface when it compiles (optionNames), so a new option cannot be refused by a stale list.
 */
import { ConfigError } from './errors.js';

/** What a list must add to name every option of T: nothing when it names them all. */
type Complete<T, K extends readonly string[]> = [Exclude<keyof T, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, K[number]> };

/** T's option names, listed in full: a list that leaves one out, or names one T has not, does not compile. */
export function optionNames<T>(): <const K extends readonly (keyof T & string)[]>(names: K & Complete<T, K>) => ReadonlySet<string> {
  return (names) => new Set(names);
}

/** A ConfigError naming the first own key of `options` that `known` does not hold; `field` is that key. */
export function refuseUnknownOptions(owner: string, options: object, known: ReadonlySet<string>): void {
  // JavaScript gets `null` (or a string) past an `options: X = {}` default: a ConfigError, not a TypeError from Object.keys.
  if (typeof options !== 'object' || options === null) throw new ConfigError(`${owner}: the options must be an object`, { field: 'options' });
  for (const key of Object.keys(options)) {
    if (known.has(key)) continue;
    const name = JSON.stringify(key.length > MAX_NAME ? `${key.slice(0, MAX_NAME)}…` : key);
    const like = resembling(key, known);
    throw new ConfigError(`${owner}: unknown option ${name}${like === undefined ? '' : ` (did you mean "${like}"?)`}`, { field: key.slice(0, MAX_NAME) });
  }
}

const MAX_NAME = 64;

/** The known name `key` is a slip of: the same but for case, or at most two edits away. */
function resembling(key: string, known: ReadonlySet<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = name.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, one row at a time; names are short. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > MAX_NAME) return Infinity;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}
