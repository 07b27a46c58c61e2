/**
 * Reading exported spans as a tree: render() draws one trace as indented lines (children in start
 * order) with the details a test asks for, so a conformance test can compare the EXACT tree as text;
 * structure() checks what must hold for every trace (one trace id, one root, every parent exported,
 * children inside their parent's time, no span left unended).
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface RenderOptions {
  /** Attribute keys to print after the name, as key=value. */
  attrs?: string[];
  /** Print span event names. */
  events?: boolean | string[];
}

export function render(spans: readonly ReadableSpan[], options: RenderOptions = {}): string {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const roots = spans.filter((s) => !s.parentSpanContext || !ids.has(s.parentSpanContext.spanId));
  const lines: string[] = [];
  const visit = (span: ReadableSpan, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${describe(span, options)}`);
    for (const child of childrenOf(spans, span)) visit(child, depth + 1);
  };
  for (const root of sortByStart(roots)) visit(root, 0);
  return lines.join('\n');
}

export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  const id = parent.spanContext().spanId;
  return sortByStart(spans.filter((s) => s.parentSpanContext?.spanId === id));
}

function sortByStart(spans: ReadableSpan[]): ReadableSpan[] {
  return [...spans].sort((a, b) => toMs(a.startTime) - toMs(b.startTime));
}

export function toMs(time: [number, number]): number {
  return time[0] * 1e3 + time[1] / 1e6;
}

function describe(span: ReadableSpan, options: RenderOptions): string {
  let text = span.name;
  if (span.kind !== SpanKind.INTERNAL) text += ` [${SpanKind[span.kind]}]`;
  if (span.status.code === SpanStatusCode.ERROR) text += ' !ERROR';
  for (const key of options.attrs ?? []) {
    const value = span.attributes[key];
    if (value !== undefined) text += ` ${key}=${Array.isArray(value) ? value.join(',') : String(value)}`;
  }
  if (options.events) {
    const wanted = Array.isArray(options.events) ? options.events : undefined;
    const names = span.events.map((e) => e.name).filter((n) => !wanted || wanted.includes(n));
    if (names.length > 0) text += ` <${names.join(' ')}>`;
  }
  return text;
}

/** Every span of `spans` belongs to one trace, under one root, inside its parent's time span. */
export function structure(spans: readonly ReadableSpan[]): { traceIds: string[]; roots: ReadableSpan[]; problems: string[] } {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const problems: string[] = [];
  const roots: ReadableSpan[] = [];
  for (const span of spans) {
    const parentId = span.parentSpanContext?.spanId;
    const parent = parentId ? byId.get(parentId) : undefined;
    if (!parent) {
      roots.push(span);
      continue;
    }
    if (parent.spanContext().traceId !== span.spanContext().traceId) problems.push(`${span.name}: trace differs from parent`);
    if (toMs(span.startTime) < toMs(parent.startTime) - 0.001) problems.push(`${span.name} starts before ${parent.name}`);
    if (toMs(span.endTime) > toMs(parent.endTime) + 0.001) problems.push(`${span.name} ends after ${parent.name}`);
  }
  const traceIds = [...new Set(spans.map((s) => s.spanContext().traceId))];
  return { traceIds, roots, problems };
}

/** A typed event's payload attributes with the event-name namespace taken off ('footprint.loop_guard.trip.kind' -> 'kind'). */
export function payloadOf(event: { name: string; attributes?: Record<string, unknown> }): Record<string, unknown> {
  const prefix = `${event.name}.`;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event.attributes ?? {})) out[key.startsWith(prefix) ? key.slice(prefix.length) : key] = value;
  return out;
}
