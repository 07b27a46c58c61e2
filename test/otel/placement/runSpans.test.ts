/**
 * RunSpans (src/otel/placement/runSpans.ts) keeps what it knows of each span on the span and its
 * spans in a list swept of ended ones as the run goes: over a run long enough to sweep many times,
 * every span still ends exactly once, at its own time, its decided end time or the run's end.
 */
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { now } from '../../../src/events/index.js';
import { RunSpans, type OpenSpan } from '../../../src/otel/placement/index.js';

describe('RunSpans over a long run', () => {
  it('ends every span once: at its end, its decided end, or with the run and the unfinished attributes', () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    // Whole milliseconds of the project clock: the SDK reads a small number by the process's age.
    const t0 = Math.floor(now());
    const run = new RunSpans({ tracer, base: ROOT_CONTEXT, name: 'run', start: { startTime: t0 } });
    const opened: OpenSpan[] = [];
    // 300 spans, by i % 6: 0 and 3 end at once; 1 gets a decided end time and ends then; 4 gets one and stays
    // open; 2 and 5 stay open. Half of them end as the run goes, so the list is swept many times.
    const fate = (i: number): readonly [number, boolean] => (i % 3 === 0 ? [t0 + 5_000 + i, false] : i % 3 === 1 ? [t0 + 6_000 + i, false] : [t0 + 8_000, true]);
    for (let i = 0; i < 300; i++) {
      const span = run.start(`s${i}`, run.root, { startTime: t0 + 2_000 + i });
      opened.push(span);
      if (i % 3 === 0) run.end(span, t0 + 5_000 + i);
      if (i % 3 === 1) run.setEndTime(span, t0 + 6_000 + i);
      if (i % 6 === 1) run.end(span);
    }
    // Ended twice, or after a decided time was given: the first end holds.
    run.end(opened[0]!, t0 + 9_999);
    expect([run.isOpen(opened[0]!), run.isOpen(opened[1]!), run.isOpen(opened[2]!), run.isOpen(opened[4]!), run.isOpen(run.root)]).toEqual([false, false, true, true, false]);
    expect([run.knownEndTime(opened[1]!), run.knownEndTime(opened[2]!), run.knownEndTime(opened[4]!)]).toEqual([undefined, undefined, t0 + 6_004]);
    run.endOpen(t0 + 8_000, { 'footprint.paused': true });
    run.endOpen(t0 + 8_500, { 'footprint.paused': true });

    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(300);
    const ends = new Map(spans.map((span) => [span.name, [hrTimeToMilliseconds(span.endTime), span.attributes['footprint.paused'] ?? false] as const]));
    const expected = opened.map((_, i): [string, readonly [number, boolean]] => [`s${i}`, fate(i)]);
    expect([...ends].sort()).toEqual(expected.sort());
  });
});
