/**
 * Exporter health against receivers that fail the way collectors do — gone, 500, 429 with
 * Retry-After, never answering — and exporters that hang or throw: every failed export is counted
 * per signal, retries and waits stay within the export timeout, nothing is thrown into the app, and
 * each kind of trouble is reported exactly once through the diag logger. Dropped spans are counted
 * exactly as the batch processor drops them.
 */
import { diag, DiagLogLevel, trace, type DiagLogger } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardSpanExporter } from '../../src/telemetry/guardedExporters.js';
import { ExportHealth } from '../../src/telemetry/health.js';
import { startTelemetry } from '../../src/telemetry/index.js';
import { CountingBatchSpanProcessor } from '../../src/telemetry/spanQueue.js';
import { startReceiver, type Receiver } from './receiver.js';

let warnings: string[] = [];
const logger: DiagLogger = {
  error: () => {},
  warn: (message) => warnings.push(message),
  info: () => {},
  debug: () => {},
  verbose: () => {},
};
const ours = () => warnings.filter((w) => w.startsWith('footprint-otel:'));

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.stop());
beforeEach(() => {
  warnings = [];
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  receiver.reply = { status: 200 };
  receiver.received.length = 0;
});
afterEach(() => diag.disable());

/** Two export rounds of spans and metrics against `url`; returns the health and how long it took. */
async function twoRounds(url: string) {
  const telemetry = startTelemetry({ endpoint: url, exportTimeoutMs: 400, handleExit: false });
  const started = Date.now();
  try {
    for (let round = 0; round < 2; round++) {
      trace.getTracer('health').startSpan(`span-${round}`).end();
      await telemetry.forceFlush();
    }
  } finally {
    await telemetry.shutdown();
  }
  return { health: telemetry.health(), ms: Date.now() - started };
}

describe('a failing collector', () => {
  it('that is gone: each failed export counts, and is reported once per signal', async () => {
    const dead = await startReceiver();
    await dead.stop();
    const { health, ms } = await twoRounds(dead.url);
    expect(health.exportFailures.traces).toBe(2);
    expect(health.exportFailures.metrics).toBeGreaterThanOrEqual(2);
    expect(ours()).toHaveLength(2);
    expect(ours().find((w) => w.includes('traces export failed'))).toContain('footprint.telemetry.export.failures');
    expect(ours().find((w) => w.includes('metrics export failed'))).toBeDefined();
    expect(ms).toBeLessThan(10_000);
  });

  it('answering 500: counted without retries', async () => {
    receiver.reply = { status: 500 };
    const { health } = await twoRounds(receiver.url);
    expect(health.exportFailures.traces).toBe(2);
    expect(receiver.of('/v1/traces')).toHaveLength(2);
    expect(ours()).toHaveLength(2);
  });

  it('answering 429 with Retry-After: retried a bounded number of times, then counted once', async () => {
    receiver.reply = { status: 429, headers: { 'retry-after': '0' } };
    const { health } = await twoRounds(receiver.url);
    expect(health.exportFailures.traces).toBe(2);
    // one attempt and at most five retries per export
    expect(receiver.of('/v1/traces').length).toBeGreaterThan(2);
    expect(receiver.of('/v1/traces').length).toBeLessThanOrEqual(12);
  });

  it('that never answers: each export gives up at its timeout and counts', async () => {
    receiver.reply = 'hang';
    const { health, ms } = await twoRounds(receiver.url);
    expect(health.exportFailures.traces).toBe(2);
    expect(ms).toBeLessThan(10_000);
    expect(ours()).toHaveLength(2);
  });
});

describe('the export guard', () => {
  const spans = [] as ReadableSpan[];
  const exporter = (exportFn: SpanExporter['export']): SpanExporter => ({ export: exportFn, shutdown: async () => {} });
  const exportOnce = (guarded: SpanExporter) => new Promise<ExportResult>((resolve) => guarded.export(spans, resolve));

  it('fails an export whose exporter never answers, and ignores a late answer', async () => {
    const health = new ExportHealth();
    let late: ((result: ExportResult) => void) | undefined;
    const guarded = guardSpanExporter(exporter((_s, done) => (late = done)), { health, timeoutMs: 50 });
    const result = await exportOnce(guarded);
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toMatch(/timed out/);
    late!({ code: ExportResultCode.SUCCESS });
    expect(health.snapshot().exportFailures.traces).toBe(1);
  });

  it('fails an export whose exporter throws, without throwing', async () => {
    const health = new ExportHealth();
    const guarded = guardSpanExporter(
      exporter(() => {
        throw new Error('boom');
      }),
      { health, timeoutMs: 50 },
    );
    expect(await exportOnce(guarded)).toMatchObject({ code: ExportResultCode.FAILED, error: { message: 'boom' } });
    expect(health.snapshot().exportFailures.traces).toBe(1);
  });
});

describe('dropped spans', () => {
  it('are counted exactly as the batch processor drops them at a full queue', async () => {
    let exported = 0;
    let stuck: (() => void) | undefined;
    const slow = {
      export: (batch: ReadableSpan[], done: (r: ExportResult) => void) => {
        exported += batch.length;
        const ok = () => done({ code: ExportResultCode.SUCCESS });
        if (stuck === undefined && exported <= 5) stuck = ok;
        else ok();
      },
      shutdown: async () => {},
    };
    let dropped = 0;
    const processor = new CountingBatchSpanProcessor(slow, {
      maxQueueSize: 10,
      maxExportBatchSize: 5,
      exportTimeoutMillis: 10_000,
      onDrop: () => dropped++,
    });
    const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('drops');
    for (let i = 0; i < 30; i++) tracer.startSpan(`s${i}`).end();
    // the first 5 went to the (stuck) exporter, 10 wait in the queue, the other 15 were dropped
    expect(exported).toBe(5);
    expect(dropped).toBe(15);

    stuck!();
    await processor.forceFlush();
    expect(exported).toBe(15);
    for (let i = 0; i < 10; i++) tracer.startSpan(`after${i}`).end();
    expect(dropped).toBe(15);
  });
});
