/**
 * The trace checker the reliability tests rely on finds what it claims to find: more or fewer than
 * one root, a parent outside the trace, a span id used twice, an unended span, a wrong trace count,
 * and attribute values (on spans, span events, links, the status message) beyond the documented caps
 * — and passes a well-formed trace, with exception text held only to its ceiling.
 */
import { SpanStatusCode, type Attributes, type SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_CAP, EXCEPTION_CEILING, LIST_CAP, traceProblems } from '../support/traceChecks.js';

const T1 = 'a'.repeat(32);
const T2 = 'b'.repeat(32);

interface Fake {
  name: string;
  traceId?: string;
  spanId: string;
  parent?: { traceId?: string; spanId: string };
  ended?: boolean;
  attributes?: Attributes;
  events?: { name: string; attributes?: Attributes }[];
  links?: Attributes[];
  status?: string;
}

function span(f: Fake): ReadableSpan {
  const traceId = f.traceId ?? T1;
  const context = (spanId: string, trace = traceId): SpanContext => ({ traceId: trace, spanId, traceFlags: 1 });
  return {
    name: f.name,
    spanContext: () => context(f.spanId),
    parentSpanContext: f.parent ? context(f.parent.spanId, f.parent.traceId ?? traceId) : undefined,
    ended: f.ended ?? true,
    attributes: f.attributes ?? {},
    events: (f.events ?? []).map((e) => ({ name: e.name, attributes: e.attributes, time: [0, 0] })),
    links: (f.links ?? []).map((attributes) => ({ context: context('9'.repeat(16)), attributes })),
    status: { code: f.status ? SpanStatusCode.ERROR : SpanStatusCode.UNSET, message: f.status },
  } as unknown as ReadableSpan;
}

const root = span({ name: 'root', spanId: '1'.repeat(16) });
const child = span({ name: 'child', spanId: '2'.repeat(16), parent: { spanId: '1'.repeat(16) } });

describe('traceProblems', () => {
  it('passes a well-formed trace, and exception text up to its ceiling', () => {
    const failing = span({
      name: 'failing',
      spanId: '3'.repeat(16),
      parent: { spanId: '1'.repeat(16) },
      events: [{ name: 'exception', attributes: { 'exception.message': 'm'.repeat(EXCEPTION_CEILING) } }],
      attributes: { list: Array.from({ length: LIST_CAP }, () => 's'.repeat(ATTRIBUTE_CAP)), text: 't'.repeat(ATTRIBUTE_CAP) },
    });
    expect(traceProblems([root, child, failing], { unended: [], traces: 1 })).toEqual([]);
  });

  it('finds structural problems', () => {
    const secondRoot = span({ name: 'second root', spanId: '4'.repeat(16) });
    const orphan = span({ name: 'orphan', spanId: '5'.repeat(16), traceId: T2, parent: { spanId: '6'.repeat(16) } });
    const twin = span({ name: 'twin', spanId: '2'.repeat(16), parent: { spanId: '1'.repeat(16) } });
    const open = span({ name: 'open', spanId: '7'.repeat(16), parent: { spanId: '1'.repeat(16) }, ended: false });
    const problems = traceProblems([root, child, secondRoot, orphan, twin, open], { unended: ['open'], traces: 1 });
    expect(problems).toEqual([
      'expected 1 traces, found 2',
      'spans never ended: open',
      `span id ${'2'.repeat(16)} (twin) used twice`,
      `trace ${T1}: 2 roots (root, second root)`,
      `trace ${T1}: open not ended`,
      `trace ${T2}: 0 roots ()`,
      `trace ${T2}: orphan has a parent outside its trace`,
    ]);
  });

  it('finds every attribute beyond the caps', () => {
    const big = span({
      name: 'big',
      spanId: '1'.repeat(16),
      attributes: { text: 'x'.repeat(ATTRIBUTE_CAP + 1), list: Array.from({ length: LIST_CAP + 1 }, () => 'i'), items: ['y'.repeat(ATTRIBUTE_CAP + 1)] },
      events: [
        { name: 'note', attributes: { 'exception.message': 'z'.repeat(ATTRIBUTE_CAP + 1) } },
        { name: 'exception', attributes: { 'exception.stacktrace': 's'.repeat(EXCEPTION_CEILING + 1) } },
      ],
      links: [{ why: 'l'.repeat(ATTRIBUTE_CAP + 1) }],
      status: 'e'.repeat(ATTRIBUTE_CAP + 1),
    });
    expect(traceProblems([big])).toEqual([
      `big text: ${ATTRIBUTE_CAP + 1} chars`,
      `big list: list of ${LIST_CAP + 1} items`,
      `big items: list item of ${ATTRIBUTE_CAP + 1} chars`,
      `big event note exception.message: ${ATTRIBUTE_CAP + 1} chars`,
      `big event exception exception.stacktrace: ${EXCEPTION_CEILING + 1} chars`,
      `big link why: ${ATTRIBUTE_CAP + 1} chars`,
      `big status message: ${ATTRIBUTE_CAP + 1} chars`,
    ]);
  });
});
