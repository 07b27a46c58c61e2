/**
 * spanTime (src/otel/encoding/spanTime.ts): the bridge hands the SDK a project-clock time already
 * as an HrTime, so it must be the very HrTime the SDK made of the number: spans and events started,
 * ended and recorded through the real SDK either way carry the same times.
 */
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { now } from '../../../src/events/index.js';
import { spanTime } from '../../../src/otel/encoding/index.js';

const CLOCK_TIMES = [1_764_900_000_000, 1_764_900_000_000.25, 1_764_900_000_999.9999, 1_000_000_000_000.5];

describe('spanTime', () => {
  it('is the HrTime core makes of an epoch time', () => {
    expect(CLOCK_TIMES.map(spanTime)).toEqual(CLOCK_TIMES.map(millisToHrTime));
    expect(spanTime(1_764_900_000_123.5)).toEqual([1_764_900_000, 123_500_000]);
    // Times as the project clock reads them, sub-millisecond fractions and all.
    const clock = Array.from({ length: 10_000 }, (_, i) => now() + i * 0.7654321);
    expect(clock.map(spanTime)).toEqual(clock.map(millisToHrTime));
  });

  it('leaves a number too small to be an epoch time for the SDK to read', () => {
    expect([spanTime(0), spanTime(1001.5), spanTime(999_999_999_999)]).toEqual([0, 1001.5, 999_999_999_999]);
  });

  it('gives a span and its event the times the SDK gives the numbers', () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    const [start, event, end] = [now(), now() + 1.5, now() + 2.25];
    for (const time of [(t: number) => t, spanTime]) {
      const span = tracer.startSpan('s', { startTime: time(start) }, ROOT_CONTEXT);
      span.addEvent('e', {}, time(event));
      span.end(time(end));
    }
    const [byNumber, byHrTime] = exporter.getFinishedSpans().map((span) => [span.startTime, span.events[0]!.time, span.endTime, span.duration]);
    expect(byHrTime).toEqual(byNumber);
  });
});
