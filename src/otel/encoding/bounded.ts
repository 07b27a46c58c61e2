/**
 * Turning arbitrary event payloads into OTel attributes that a backend will accept and a person can
 * read: nested objects flatten to dotted keys, strings and lists are capped (with a visible marker),
 * depth and key counts are bounded, cycles and odd values (bigint, Map, Set, Date, Error, throwing
 * getters, functions) never throw. Whatever goes in, what comes out is small and valid.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';

export const MAX_STRING = 256;
export const MAX_LIST = 20;
export const MAX_DEPTH = 4;
export const MAX_KEYS = 64;
/** Span names stay short: a backend indexes them. */
export const MAX_NAME = 128;

export function boundString(text: string, max = MAX_STRING): string {
  return text.length > max ? `${text.slice(0, max)}…(+${text.length - max} chars)` : text;
}

/** A JSON rendering that never throws (cycles, bigint, functions), capped to `max` chars. */
export function safeJson(value: unknown, max = MAX_STRING): string {
  const seen = new WeakSet<object>();
  let text: string;
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      if (v instanceof Map) return Object.fromEntries(v);
      if (v instanceof Set) return [...v];
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[circular]';
        seen.add(v);
      }
      return v;
    });
    // undefined, a function or a symbol has no JSON; String() stays inside the try, since a value's own toString may not be callable.
    text = json ?? String(value);
  } catch {
    text = '[unserializable]';
  }
  return boundString(text, max);
}

/** What a field is recorded under: its name, and for a number of milliseconds, the name it takes once recorded in seconds. */
export interface FieldNames {
  readonly plain: string;
  readonly seconds?: string;
}

/**
 * How a payload's field names become attribute names (see FieldNames). Without one, field names are
 * kept as they are. Called per field of every payload flattened: it should hand back the same
 * object for the same field, not a new one.
 */
export type FieldNaming = (field: string) => FieldNames;

/**
 * Flattens `value` into `out` under `prefix` ('' puts an object's keys at the top level; a bare
 * scalar then lands under 'value'), naming each field with `naming`. Keys beyond MAX_KEYS are
 * counted in '<prefix>._dropped'.
 */
export function flatten(value: unknown, prefix: string, out: Attributes = {}, naming?: FieldNaming): Attributes {
  const budget = { left: MAX_KEYS, dropped: 0 };
  const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value) && toScalar(value) === undefined;
  walk(value, prefix === '' && !isRecord ? 'value' : prefix, out, 0, undefined, budget, naming);
  if (budget.dropped > 0) out[join(prefix, '_dropped')] = budget.dropped;
  return out;
}

/**
 * The dotted keys built so far, by prefix and name: the same payload shapes come back on every run,
 * and a key built once is one string instead of a new one per event. Bounded: once full, keys are
 * built as they come.
 */
const keys = new Map<string, Map<string, string>>();
const MAX_CACHED_KEYS = 4096;
let cachedKeys = 0;

function join(prefix: string, name: string): string {
  if (prefix === '') return name;
  let byName = keys.get(prefix);
  const known = byName?.get(name);
  if (known !== undefined) return known;
  const key = `${prefix}.${name}`;
  if (cachedKeys < MAX_CACHED_KEYS) {
    if (!byName) keys.set(prefix, (byName = new Map()));
    byName.set(name, key);
    cachedKeys++;
  }
  return key;
}

interface Budget {
  left: number;
  dropped: number;
}

/**
 * The objects being walked, innermost first: a cycle leads back to one of them. At most MAX_DEPTH + 1
 * long, so a chain searched link by link (one small link per object entered) does what a WeakSet per
 * flatten did, without a hash table per span event.
 */
interface Ancestors {
  readonly object: object;
  readonly up: Ancestors | undefined;
}

function isAncestor(object: object, ancestors: Ancestors | undefined): boolean {
  for (let at = ancestors; at !== undefined; at = at.up) if (at.object === object) return true;
  return false;
}

function put(out: Attributes, key: string, value: AttributeValue, budget: Budget): void {
  if (budget.left <= 0) {
    budget.dropped++;
    return;
  }
  budget.left--;
  out[key] = value;
}

function walk(value: unknown, key: string, out: Attributes, depth: number, ancestors: Ancestors | undefined, budget: Budget, naming?: FieldNaming): void {
  const scalar = toScalar(value);
  if (scalar !== undefined) {
    put(out, key, scalar, budget);
    return;
  }
  if (value === null || value === undefined || typeof value === 'function' || typeof value === 'symbol') return;
  const object = value as object;
  if (isAncestor(object, ancestors)) {
    put(out, key, '[circular]', budget);
    return;
  }
  if (Array.isArray(object) || object instanceof Set) {
    put(out, key, toList([...(object as Iterable<unknown>)]), budget);
    return;
  }
  if (depth >= MAX_DEPTH) {
    put(out, key, safeJson(object), budget);
    return;
  }
  const within: Ancestors = { object, up: ancestors };
  if (object instanceof Map) for (const [field, child] of object) walkField(mapKeyName(field), child, key, out, depth, within, budget, naming);
  // for-in with the hasOwnProperty check V8 folds away: the same own keys in the same order as Object.keys, without their array.
  else for (const field in object) if (Object.prototype.hasOwnProperty.call(object, field)) walkField(field, readField(object, field), key, out, depth, within, budget, naming);
}

function walkField(field: string, child: unknown, parentKey: string, out: Attributes, depth: number, ancestors: Ancestors, budget: Budget, naming?: FieldNaming): void {
  if (!naming) return walk(child, join(parentKey, field), out, depth + 1, ancestors, budget);
  const names = naming(field);
  if (names.seconds !== undefined && typeof child === 'number') walk(child / 1000, join(parentKey, names.seconds), out, depth + 1, ancestors, budget, naming);
  else walk(child, join(parentKey, names.plain), out, depth + 1, ancestors, budget, naming);
}

/**
 * A Map's key as a field name. Keys can be anything, and String() throws on an object whose
 * toString is not callable: objects are named by their bounded JSON instead.
 */
function mapKeyName(key: unknown): string {
  if (typeof key === 'string') return key;
  const scalar = toScalar(key);
  return scalar !== undefined ? String(scalar) : safeJson(key, MAX_NAME);
}

/** A getter that throws leaves a marker instead. */
function readField(object: object, field: string): unknown {
  try {
    return (object as Record<string, unknown>)[field];
  } catch {
    return '[unreadable]';
  }
}

function toScalar(value: unknown): AttributeValue | undefined {
  switch (typeof value) {
    case 'string':
      return boundString(value);
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    default:
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
      if (value instanceof Error) return boundString(`${value.name}: ${value.message}`);
      return undefined;
  }
}

/**
 * Lists: a short list of one primitive type stays as it is; anything else becomes a list of
 * strings, capped at MAX_LIST with a final '+N more' marker.
 */
export function toList(items: unknown[]): AttributeValue {
  const kinds = new Set(items.map((item) => typeof item));
  if (items.length <= MAX_LIST && kinds.size === 1) {
    const [kind] = kinds;
    if (kind === 'string') return (items as string[]).map((s) => boundString(s));
    if (kind === 'boolean') return items as boolean[];
    if (kind === 'number' && (items as number[]).every(Number.isFinite)) return items as number[];
  }
  const shown = items.slice(0, MAX_LIST).map((item) => {
    const scalar = toScalar(item);
    return typeof scalar === 'string' ? scalar : scalar !== undefined ? String(scalar) : safeJson(item);
  });
  if (items.length > MAX_LIST) shown.push(`+${items.length - MAX_LIST} more`);
  return shown;
}
