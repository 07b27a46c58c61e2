/**
 * A burst the span queue accepted reaches the trace files whole: 10,000 spans under one run's root
 * span, ended at once, through startTelemetry's real pipeline (span queue, export guard, file
 * writer) into files. At shutdown the SDK hands the queue over in 20 batches at the same moment; the
 * file writer must hold them in order (backpressure), not refuse the ones past a fixed count.
 */
import { context, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { readSpans, startTelemetry } from '../../src/telemetry/index.js';
import { scratchFolders } from '../support/scratch.js';

const scratch = scratchFolders('fp-burst-');

const BURST = 10_000;

describe('a burst of spans into the trace files', () => {
  it('writes every accepted span, the root included, and counts none as lost', async () => {
    const dir = scratch();
    // the demo's queue (16,384) with the SDK's default batch of 512: the flush at shutdown is 20 exports at once
    const telemetry = startTelemetry({ fileDirectory: dir, maxQueueSize: 16_384, maxExportBatchSize: 512, metricExportIntervalMs: 600_000, handleExit: false });
    const tracer = trace.getTracer('burst-test');
    const root = tracer.startSpan('invoke_agent burst');
    const parent = trace.setSpan(context.active(), root);
    for (let i = 0; i < BURST; i++) tracer.startSpan(`execute_tool t${i}`, {}, parent).end();
    root.end();
    await telemetry.shutdown();

    const spans = await readSpans(dir);
    const rootSpans = spans.filter((s) => s.parentSpanId === undefined).map((s) => s.name);
    expect(rootSpans).toEqual(['invoke_agent burst']);
    expect(spans.length).toBe(BURST + 1);
    expect(new Set(spans.map((s) => s.name)).size).toBe(BURST + 1);
    expect(telemetry.health().spans).toEqual({ exported: BURST + 1, lost: {}, reasons: {}, inFlight: 0, queued: 0, queueCapacity: 16_384, exporting: false });
  }, 60_000);
});
