/**
 * The benchmark scenario's traces, pinned span for span, so a performance change provably leaves
 * every trace identical: the whole tree (names, parents, kinds, status, links) with every attribute
 * (keys sorted) and span event (keys and values) in full detail, semantic detail, and full detail with content
 * capture on. Run ids, turn ids and call ids are random or counter-based per process, so each
 * distinct one is replaced by a numbered placeholder in order of appearance (equal ids stay equal);
 * a span id in an attribute (the run span's answer) is replaced by the span it names, by name and
 * start order; times are left out. The expected trees live next to this file as text.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerInstrument, tracingInstrument } from '../../src/index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const DETAIL_ENV = 'FOOTPRINT_OTEL_DETAIL';
const CAPTURE_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

// Each turn registers a tracing instrument made under its environment; it finds this provider at run start.
beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterEach(() => {
  delete process.env[DETAIL_ENV];
  delete process.env[CAPTURE_ENV];
  exporter.reset();
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

async function traceOfOneTurn(env: Record<string, string>): Promise<string> {
  Object.assign(process.env, env);
  const { referenceAgent, MESSAGE } = await import('../../bench/scenario.js');
  const unregister = registerInstrument(tracingInstrument());
  try {
    const answer = await referenceAgent().run(MESSAGE);
    expect(answer.text).toBe('Order 1234 shipped; shipping to Lyon costs 12 EUR.');
  } finally {
    unregister();
  }
  return renderTrace(exporter.getFinishedSpans());
}

describe('the benchmark turn traces exactly as pinned', () => {
  it('in full detail', async () => {
    await expect(await traceOfOneTurn({ [DETAIL_ENV]: 'full' })).toMatchFileSnapshot('./spanTree.full.txt');
  });

  it('in semantic detail', async () => {
    await expect(await traceOfOneTurn({ [DETAIL_ENV]: 'semantic' })).toMatchFileSnapshot('./spanTree.semantic.txt');
  });

  it('in full detail with message content captured', async () => {
    const text = await traceOfOneTurn({ [DETAIL_ENV]: 'full', [CAPTURE_ENV]: 'true' });
    await expect(text).toMatchFileSnapshot('./spanTree.full-content.txt');
  });
});

const ID_PATTERN = /\b(run|turn|call)_[0-9a-f]+(?:_[0-9a-f]+)*\b/g;
const SPAN_ID_PATTERN = /\b[0-9a-f]{16}\b/g;

/** One trace as indented text: children in start order, each span's attributes and events in full. */
function renderTrace(spans: readonly ReadableSpan[]): string {
  const ids = new Map<string, string>();
  // A span id names its span: `<span chat gpt-4o-mini #3>`, the third span of that name to start.
  const spanNames = new Map<string, string>();
  const named = new Map<string, number>();
  for (const span of inStartOrder([...spans])) {
    named.set(span.name, (named.get(span.name) ?? 0) + 1);
    spanNames.set(span.spanContext().spanId, `<span ${span.name} #${named.get(span.name)}>`);
  }
  const stable = (text: string) =>
    text
      .replace(ID_PATTERN, (id, kind: string) => {
        if (!ids.has(id)) ids.set(id, `<${kind}-id-${ids.size + 1}>`);
        return ids.get(id)!;
      })
      .replace(SPAN_ID_PATTERN, (id) => spanNames.get(id) ?? id);
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const spanIds = new Set(spans.map((s) => s.spanContext().spanId));
  for (const span of spans) {
    const parentId = span.parentSpanContext?.spanId;
    const key = parentId !== undefined && spanIds.has(parentId) ? parentId : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const lines: string[] = [`spans: ${spans.length}, traces: ${new Set(spans.map((s) => s.spanContext().traceId)).size}`];
  const visit = (span: ReadableSpan, depth: number) => {
    const pad = '  '.repeat(depth);
    const status = span.status.code === SpanStatusCode.UNSET ? '' : ` status=${SpanStatusCode[span.status.code]}`;
    lines.push(`${pad}${span.name} [${SpanKind[span.kind]}]${status}${span.links.length ? ` links=${span.links.length}` : ''}`);
    for (const [key, value] of sortedEntries(span.attributes)) lines.push(`${pad}  | ${key} = ${stable(JSON.stringify(value))}`);
    for (const event of span.events) {
      lines.push(`${pad}  * ${event.name}`);
      for (const [key, value] of sortedEntries(event.attributes ?? {})) lines.push(`${pad}    | ${key} = ${stable(JSON.stringify(value))}`);
    }
    for (const child of inStartOrder(byParent.get(span.spanContext().spanId) ?? [])) visit(child, depth + 1);
  };
  for (const root of inStartOrder(byParent.get(undefined) ?? [])) visit(root, 0);
  return `${lines.join('\n')}\n`;
}

/** Attribute order carries no meaning in OTLP, so it is not pinned. */
function sortedEntries(attributes: Record<string, unknown>): [string, unknown][] {
  return Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function inStartOrder(spans: ReadableSpan[]): ReadableSpan[] {
  const ms = (t: [number, number]) => t[0] * 1e3 + t[1] / 1e6;
  return [...spans].sort((a, b) => ms(a.startTime) - ms(b.startTime));
}
