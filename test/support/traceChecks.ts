/**
 * What "a well-formed trace" means in these tests, as a list of problems (empty when all is well, so
 * a failing assertion shows exactly what broke): spans grouped by trace id, each trace with exactly
 * one root, every other span's parent inside its own trace, no span id used twice, every span ended,
 * and no attribute — on spans, span events and links, plus the status message — longer than the
 * largest cap the bridge documents (8 KiB content, plus the room its truncation marker takes) or a
 * list longer than its list cap. Exception events are the one exception: the bridge documents them as
 * "recorded as usual" (no cap of its own), so their message and stack trace are only held to a
 * sanity ceiling of 64 KiB — what matters there is that nothing megabytes-long reaches a span.
 */
import type { AttributeValue, Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MAX_LIST } from '../../src/otel/encoding/bounded.js';
import { MAX_CONTENT_CHARS } from '../../src/otel/encoding/content.js';
import { MAX_PART_ENTRIES } from '../../src/otel/genai/lineage.js';

/** The longest string any attribute may hold: the content cap plus a '…(+N chars)' marker. */
export const ATTRIBUTE_CAP = MAX_CONTENT_CHARS + 32;
/** A list holds at most MAX_LIST items plus a '+N more' marker. */
export const LIST_CAP = MAX_LIST + 1;
/** The lineage's part lists hold up to MAX_PART_ENTRIES entries (docs/lineage.md: the newest 128 parts). */
const LINEAGE_LIST_CAP = MAX_PART_ENTRIES;
/** exception.message / exception.stacktrace: no documented cap, but never megabytes. */
export const EXCEPTION_CEILING = 64 * 1024;
const EXCEPTION_TEXT = new Set(['exception.message', 'exception.stacktrace']);

export function groupByTrace(spans: readonly ReadableSpan[]): Map<string, ReadableSpan[]> {
  const traces = new Map<string, ReadableSpan[]>();
  for (const span of spans) {
    const id = span.spanContext().traceId;
    let list = traces.get(id);
    if (!list) traces.set(id, (list = []));
    list.push(span);
  }
  return traces;
}

/** The root span of a trace (no parent at all), or undefined when there is not exactly one. */
export function rootOf(spans: readonly ReadableSpan[]): ReadableSpan | undefined {
  const roots = spans.filter((s) => s.parentSpanContext === undefined);
  return roots.length === 1 ? roots[0] : undefined;
}

export interface ShapeOptions {
  /** Spans the SDK saw start but never end (see Sdk.unended in sdk.ts). */
  unended?: readonly string[];
  /** How many traces there must be. */
  traces?: number;
}

/** A span's name as problems quote it (a name can itself be the thing that is too long). */
function label(name: string): string {
  return name.length > 60 ? `${name.slice(0, 60)}…(${name.length} chars)` : name;
}

/** Every problem with `spans` as a set of traces; [] when they are all well-formed. */
export function traceProblems(spans: readonly ReadableSpan[], options: ShapeOptions = {}): string[] {
  const problems: string[] = [];
  const traces = groupByTrace(spans);
  if (options.traces !== undefined && traces.size !== options.traces) {
    problems.push(`expected ${options.traces} traces, found ${traces.size}`);
  }
  if (options.unended && options.unended.length > 0) problems.push(`spans never ended: ${options.unended.join(', ')}`);

  const spanIds = new Set<string>();
  for (const span of spans) {
    const id = span.spanContext().spanId;
    if (spanIds.has(id)) problems.push(`span id ${id} (${label(span.name)}) used twice`);
    spanIds.add(id);
  }

  for (const [traceId, members] of traces) {
    const ids = new Set(members.map((s) => s.spanContext().spanId));
    const roots = members.filter((s) => s.parentSpanContext === undefined);
    if (roots.length !== 1) problems.push(`trace ${traceId}: ${roots.length} roots (${roots.map((r) => label(r.name)).join(', ')})`);
    for (const span of members) {
      const parent = span.parentSpanContext;
      if (parent && (parent.traceId !== traceId || !ids.has(parent.spanId))) {
        problems.push(`trace ${traceId}: ${label(span.name)} has a parent outside its trace`);
      }
      if (!span.ended) problems.push(`trace ${traceId}: ${label(span.name)} not ended`);
      problems.push(...attributeProblems(span));
    }
  }
  return problems;
}

/** Attribute values over the documented caps, anywhere on the span. */
export function attributeProblems(span: ReadableSpan): string[] {
  const problems: string[] = [];
  const check = (attributes: Attributes | undefined, where: string, exception = false) => {
    for (const [key, value] of Object.entries(attributes ?? {})) {
      const cap = exception && EXCEPTION_TEXT.has(key) ? EXCEPTION_CEILING : ATTRIBUTE_CAP;
      const problem = valueProblem(value, cap, key.startsWith('footprint.lineage.') ? LINEAGE_LIST_CAP : LIST_CAP);
      if (problem) problems.push(`${label(span.name)} ${where}${key}: ${problem}`);
    }
  };
  check(span.attributes, '');
  for (const event of span.events) check(event.attributes, `event ${event.name} `, event.name === 'exception');
  for (const link of span.links) check(link.attributes, 'link ');
  const message = span.status.message ?? '';
  if (message.length > ATTRIBUTE_CAP) problems.push(`${label(span.name)} status message: ${message.length} chars`);
  return problems;
}

function valueProblem(value: AttributeValue | undefined, cap: number, listCap: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    if (value.length > listCap) return `list of ${value.length} items`;
    for (const item of value) {
      if (typeof item === 'string' && item.length > cap) return `list item of ${item.length} chars`;
    }
    return undefined;
  }
  if (typeof value === 'string' && value.length > cap) return `${value.length} chars`;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return `not an attribute value (${typeof value})`;
  return undefined;
}
