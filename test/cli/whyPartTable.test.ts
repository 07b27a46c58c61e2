/**
 * How `why` reads a chat span's whole part table (src/cli/whyPartTable.ts, docs/lineage.md): the parts
 * it shares with its agent's call before, read off that span (and so on back), the parts folded out
 * left unknown, then its own arrays; every part at its place among all the parts the call was sent.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { MAX_READ_PARTS, partTableOf } from '../../src/cli/whyPartTable.js';
import { TraceSpans } from '../../src/cli/whySpans.js';
import type { FileAttributes, FileSpan } from '../../src/telemetry/index.js';

const TRACE = 'a'.repeat(32);

function chat(spanId: string, parts: [string, string, number][], extra: FileAttributes = {}): FileSpan {
  return {
    traceId: TRACE,
    spanId,
    name: 'chat m',
    kind: SpanKind.CLIENT,
    startTimeUnixNano: '0',
    endTimeUnixNano: '0',
    startMs: 0,
    endMs: 0,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'footprint.lineage.part.origins': parts.map((p) => p[0]),
      'footprint.lineage.part.producers': parts.map((p) => p[1]),
      'footprint.lineage.part.tokens': parts.map((p) => p[2]),
      ...extra,
    },
    events: [],
    links: [],
    status: { code: SpanStatusCode.UNSET },
    scope: 'footprint-otel',
    resource: {},
  };
}

const sharing = (parts: number, spanId: string): FileAttributes => ({ 'footprint.lineage.shared.parts': parts, 'footprint.lineage.shared.span_id': spanId });

function read(spans: FileSpan[], which: FileSpan) {
  const all = new TraceSpans();
  all.addTrace(TRACE, spans);
  return partTableOf(which, all)?.map((p) => [p.position, p.origin, p.producer, p.tokens]);
}

const first = chat('0000000000000001', [['instructions', 'agent', 3], ['run_input', 'run_1', 5], ['tool_definitions', 'agent', 40]]);
const second = chat('0000000000000002', [['model_output', 'call_1', 7], ['tool_result', 'call_1:t1', 2], ['tool_definitions', 'agent', 40]], sharing(2, first.spanId));
const third = chat('0000000000000003', [['model_output', 'call_2', 6], ['tool_definitions', 'agent', 40]], sharing(4, second.spanId));

describe('why reads a chat span\'s whole part table', () => {
  it('a call that shares parts gets them from the call before, and that one from the call before it', () => {
    expect(read([first, second, third], third)).toEqual([
      [0, 'instructions', 'agent', 3],
      [1, 'run_input', 'run_1', 5],
      [2, 'model_output', 'call_1', 7],
      [3, 'tool_result', 'call_1:t1', 2],
      [4, 'model_output', 'call_2', 6],
      [5, 'tool_definitions', 'agent', 40],
    ]);
    expect(read([first, second, third], first)).toEqual([
      [0, 'instructions', 'agent', 3],
      [1, 'run_input', 'run_1', 5],
      [2, 'tool_definitions', 'agent', 40],
    ]);
  });

  it('the parts of a span that is not there are unknown: the rest keep their places', () => {
    expect(read([second, third], third)).toEqual([
      [2, 'model_output', 'call_1', 7],
      [3, 'tool_result', 'call_1:t1', 2],
      [4, 'model_output', 'call_2', 6],
      [5, 'tool_definitions', 'agent', 40],
    ]);
  });

  it('parts folded out between the shared ones and the listed ones are unknown', () => {
    const folded = chat('0000000000000004', [['tool_result', 'call_2:t9', 1]], { ...sharing(2, first.spanId), 'footprint.lineage.parts_folded': 3 });
    expect(read([first, folded], folded)).toEqual([
      [0, 'instructions', 'agent', 3],
      [1, 'run_input', 'run_1', 5],
      [5, 'tool_result', 'call_2:t9', 1],
    ]);
  });

  it('a hostile file: two spans that share with each other end; a count that is no count shares nothing; no table is none', () => {
    const a = chat('000000000000000a', [['model_output', 'call_a', 1]], sharing(1, '000000000000000b'));
    const b = chat('000000000000000b', [['model_output', 'call_b', 2]], sharing(1, '000000000000000a'));
    expect(read([a, b], a)).toEqual([[1, 'model_output', 'call_a', 1]]);
    const odd = chat('000000000000000c', [['run_input', 'run_1', 5]], { 'footprint.lineage.shared.parts': -4, 'footprint.lineage.shared.span_id': first.spanId, 'footprint.lineage.parts_folded': 1.5 });
    expect(read([first, odd], odd)).toEqual([[0, 'run_input', 'run_1', 5]]);
    const none = { ...first, spanId: '000000000000000d', attributes: { 'gen_ai.operation.name': 'chat' } };
    expect(read([none], none)).toBeUndefined();
  });

  it(`a hostile chain of spans each sharing every part of the one before: the tables read hold at most about ${MAX_READ_PARTS} parts in all`, () => {
    // Span i lists one part and shares the i - 1 parts of span i - 1: whole, the tables would hold 1,500 x 1,501 / 2 = 1,125,750 parts.
    const chain = Array.from({ length: 1_500 }, (_, i) =>
      chat((i + 1).toString(16).padStart(16, '0'), [['tool_result', `call_${i}:t`, 1]], i === 0 ? {} : sharing(i, i.toString(16).padStart(16, '0'))),
    );
    const all = new TraceSpans();
    all.addTrace(TRACE, chain);
    const last = partTableOf(chain[1_499]!, all)!;
    // Read oldest first: span 1,413 brings the parts read to 1,413 x 1,414 / 2 = 998,991; span 1,414 would pass the bound and
    // keeps its own part only; the next ones grow again from it (2, 3, ... parts) until the bound is reached, and the last keeps its own part.
    expect([partTableOf(chain[1_412]!, all)!.length, partTableOf(chain[1_413]!, all)!.length, last.length]).toEqual([1_413, 1, 1]);
    expect(last[0]).toEqual({ position: 1_499, origin: 'tool_result', producer: 'call_1499:t', tokens: 1 });
  });
});
