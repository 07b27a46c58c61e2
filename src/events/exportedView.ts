/**
 * What may leave the process: the one place that reads the content-capture setting. Every writer
 * that exports (spans, span events, the files they go to, failures, MCP spans) takes a record's
 * exported view from exportedView() and writes what the view holds; none of them branches on
 * capture itself.
 *
 * A record is a typed event (its content fields are declared beside its doc in the catalog,
 * EVENTS) or one of the few other things the bridge exports that hold content (OTHER_RECORDS: a
 * thrown value, a footprintjs flow's pause data, rule reads and error text, an MCP request's
 * arguments and result, what a provider's error keeps of its answer). With capture off, a view leaves every content field out, except a
 * failure's text, which it replaces with a stand-in saying so (WITHHELD_MESSAGE), so a failure
 * still reads as one: an `error.message` unless the error is footprint-otel's own wording
 * (EventError.ownText), a thrown value unless its class is marked (markOwnText). `ownText` itself is
 * a runtime detail and never in a view.
 */
import { EVENTS, type EventPayloads, type EventTable, type EventType } from './catalog.js';
import { hasOwnText } from './contentCapture.js';
import type { EventMeta, TypedEvent } from './envelope.js';

/** Stands for the text of a failure that is content, when content capture is off. */
export const WITHHELD_MESSAGE = 'message not recorded: content capture is off';

/** Exported content that is no typed event, classified here as the catalog classifies events. */
export interface OtherRecords {
  /** A value something threw (user code, a provider, a tool): its view is itself or a stand-in Error. */
  thrown: { error: unknown };
  /** What a paused footprintjs flow carries (traceExecutor's pause event). */
  'flow.pause': { data?: unknown };
  /** What one rule of a footprintjs decision read (a value's summary). */
  'flow.rule_read': { summary: string };
  /** A footprintjs flow's error event. */
  'flow.error': { error: { message: string } };
  /** An MCP tools/call: the arguments sent and the result's content. */
  'mcp.tool_call': { arguments?: unknown; result?: unknown };
  /** What a provider's failure may keep of its answer (ProviderError): the unusable body, the provider's own message. */
  'provider.error_body': { raw?: string; detail?: string };
  /**
   * An MCP request that failed: its message may hold the server's own words (a JSON-RPC error's
   * message, an HTTP error body); `summary` says what failed without them.
   */
  'mcp.failure': { message: string; summary: string };
}

const OTHER_RECORDS = {
  thrown: { doc: 'A thrown value.', content: ['error'] },
  'flow.pause': { doc: "A paused flow's data.", content: ['data'] },
  'flow.rule_read': { doc: 'A value a decision rule read.', content: ['summary'] },
  'flow.error': { doc: "A flow's error event.", content: ['error.message'] },
  'mcp.tool_call': { doc: 'An MCP tool call.', content: ['arguments', 'result'] },
  'provider.error_body': { doc: "A provider's error answer.", content: ['raw', 'detail'] },
  'mcp.failure': { doc: 'A failed MCP request.', content: ['message'] },
} as const satisfies EventTable<OtherRecords>;

type Records = EventPayloads & OtherRecords;
type RecordType = keyof Records;
/**
 * What a view does per record type, worked out once: the top-level content fields left out in one
 * copy (`drop`), and the paths that need more (a field one level down, a thrown value).
 */
interface Plan {
  readonly drop: ReadonlySet<string>;
  readonly paths: readonly (readonly string[])[];
}
const PLANS = new Map<string, Plan>(
  Object.entries({ ...EVENTS, ...OTHER_RECORDS }).map(([type, entry]): [string, Plan] => {
    const paths = (entry.content as readonly string[]).map((field) => field.split('.'));
    const dropped = (path: readonly string[]) => path.length === 1 && path[0] !== 'error';
    return [type, { drop: new Set(paths.filter(dropped).map((path) => path[0]!)), paths: paths.filter((path) => !dropped(path)) }];
  }),
);
/** The declared content fields of each record type, as the types see them. */
type ContentOf<K extends RecordType> = K extends EventType ? (typeof EVENTS)[K]['content'][number] : K extends keyof OtherRecords ? (typeof OTHER_RECORDS)[K]['content'][number] : never;

type Head<F> = F extends `${infer H}.${string}` ? H : never;
type Leaf<F, H extends string> = F extends `${H}.${infer L}` ? L : never;
/** A field holding content one level down: those fields may be absent (an error's message stays: its stand-in). */
type Within<V, L extends string, H extends string> = V extends object
  ? H extends 'error'
    ? Omit<V, 'ownText'>
    : Omit<V, L> & Partial<Pick<V, L & keyof V>>
  : V;
/** A payload as a view holds it: each content field may be absent, and no error carries `ownText`. */
export type Exported<P, F extends string> = Omit<P, F | Head<F>> &
  Partial<Pick<P, F & keyof P>> & { [K in keyof Pick<P, Head<F> & keyof P>]: Within<P[K], Leaf<F, K & string>, K & string> };

/** A typed event as it may be exported. */
export interface ExportedEvent<K extends EventType = EventType> {
  type: K;
  payload: Exported<EventPayloads[K], ContentOf<K> & string>;
  meta: EventMeta;
}

/** A record that is no typed event, as it may be exported. */
export interface ExportedRecord<K extends keyof OtherRecords> {
  type: K;
  payload: Exported<OtherRecords[K], ContentOf<K> & string>;
}

/** The record as it may be exported under the capture setting (see the header). */
export function exportedView<K extends EventType>(event: TypedEvent<K>, capture: boolean): ExportedEvent<K>;
export function exportedView<K extends keyof OtherRecords>(record: { type: K; payload: OtherRecords[K] }, capture: boolean): ExportedRecord<K>;
export function exportedView(record: { type: RecordType; payload: unknown; meta?: EventMeta }, capture: boolean): unknown {
  const plan = PLANS.get(record.type)!;
  let payload = capture || plan.drop.size === 0 ? record.payload : without(record.payload, plan.drop);
  for (const path of plan.paths) payload = viewAt(payload, path, capture);
  if (payload === record.payload) return record;
  // Every field named, no spread: views are made on the per-event path (docs/architecture.md).
  return record.meta === undefined ? { type: record.type, payload } : { type: record.type, payload, meta: record.meta };
}

/** `value` with the content at `path` as it may be exported; a copy when anything changed (payloads are shared). */
function viewAt(value: unknown, path: readonly string[], capture: boolean, parent?: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const [field, ...rest] = path as [string, ...string[]];
  if (!(field in record)) return value;
  if (rest.length === 0) return parent === 'error' ? errorView(record, field, capture) : fieldView(record, field, capture);
  const inner = viewAt(record[field], rest, capture, field);
  return inner === record[field] ? value : Object.assign({}, record, { [field]: inner });
}

/**
 * A copy of `value` without the `fields` it has; `value` itself when it has none. Copied key by key,
 * never with delete, so the copy keeps V8's fast properties (views are made on the per-event path).
 * A for-in walk with the hasOwnProperty check V8 folds away: the same own keys in the same order as
 * Object.keys, without an array of them per copy (a quarter of a view's time).
 */
function without(value: unknown, fields: ReadonlySet<string>): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  let found = false;
  for (const field of fields) if (field in record) found = true;
  if (!found) return value;
  const copy: Record<string, unknown> = {};
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key) && !fields.has(key)) copy[key] = record[key];
  return copy;
}

/** A field of a payload: left out with capture off; a thrown value (`error`) becomes its stand-in instead. */
function fieldView(record: Record<string, unknown>, field: string, capture: boolean): Record<string, unknown> {
  if (field === 'error') {
    const thrown = record.error;
    const shown = capture || hasOwnText(thrown) ? thrown : standIn(thrown);
    return shown === thrown ? record : Object.assign({}, record, { error: shown });
  }
  return capture ? record : (without(record, new Set([field])) as Record<string, unknown>);
}

/** An error's text (EventError): kept under capture or when footprint-otel worded it, else the stand-in; never `ownText`. */
function errorView(error: Record<string, unknown>, field: string, capture: boolean): Record<string, unknown> {
  const keep = capture || error.ownText === true;
  if (keep && !('ownText' in error)) return error;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(error)) if (key !== 'ownText') copy[key] = key === field && !keep ? WITHHELD_MESSAGE : error[key];
  return copy;
}

/** A thrown value as it may leave the process: its class and type, WITHHELD_MESSAGE, its stack's frames without the message. */
function standIn(error: unknown): Error {
  const type = thrownType(error);
  const stand = new Error(WITHHELD_MESSAGE);
  stand.name = error instanceof Error ? error.name : type;
  const frames = error instanceof Error && typeof error.stack === 'string' ? framesOf(error.stack, error.message) : [];
  stand.stack = [`${stand.name}: ${WITHHELD_MESSAGE}`, ...frames].join('\n');
  return Object.assign(stand, { errorType: type });
}

/**
 * The frames of a stack, none of its message: V8 writes the whole message first (`Name: message`,
 * over as many lines as it has), and a line of it may look like a frame (a quoted text's
 * "    at the store"), so the frames are looked for only after it. A stack that does not begin with
 * the message (it was changed after the error was made) gives none: where the old text ends is unknown.
 */
function framesOf(stack: string, message: unknown): string[] {
  let rest = stack;
  if (message !== '') {
    const at = typeof message === 'string' ? stack.indexOf(message) : -1;
    if (at === -1 || stack.lastIndexOf('\n', at) !== -1) return [];
    rest = stack.slice(at + (message as string).length);
  }
  return rest.split('\n').filter((line) => /^\s+at /.test(line));
}

/** A low-cardinality type: an `errorType` the error declares (runtime errors do), else its name. */
export function thrownType(error: unknown): string {
  const declared = typeof error === 'object' && error !== null ? (error as { errorType?: unknown }).errorType : undefined;
  if (typeof declared === 'string' && declared !== '') return declared;
  if (error instanceof Error) return error.name;
  if (typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string') {
    return (error as { name: string }).name;
  }
  return '_OTHER';
}

