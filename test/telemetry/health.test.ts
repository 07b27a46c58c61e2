/**
 * Exporter health against receivers that fail the way collectors do — gone, 500, 429 with
 * Retry-After, never answering — and exporters that hang or throw: every span and metric data point
 * is accounted for, exported or lost with its cause ("refused", "500", "retryable_status", "timeout"), retries and
 * waits stay within the export timeout, nothing is thrown into the app, and each kind of trouble is
 * reported exactly once through the diag logger. The health metrics (the SDK's otel.sdk.* instruments)
 * hold exactly the numbers of the snapshot; dropped spans are counted exactly as the batch processor
 * drops them, in the snapshot and in the SDK's own otel.sdk.processor.span.processed.
 */
import { diag, DiagLogLevel, trace, type DiagLogger } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardMetricExporter, guardSpanExporter } from '../../src/telemetry/guardedExporters.js';
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
  it('that is gone: every span is lost as "refused", reported once per signal', async () => {
    const dead = await startReceiver();
    await dead.stop();
    const { health, ms } = await twoRounds(dead.url);
    expect(health.spans).toEqual({
      exported: 0,
      lost: { refused: 2 },
      reasons: { refused: expect.stringContaining('ECONNREFUSED') },
      inFlight: 0,
      queued: 0,
      queueCapacity: 2048,
      exporting: false,
    });
    expect(Object.keys(health.metricPoints.lost)).toEqual(['refused']);
    expect(health.metricPoints.exported).toBe(0);
    expect(ours()).toHaveLength(2);
    expect(ours().find((w) => w.includes('traces export failed'))).toContain('otel.sdk.exporter.span.exported{error.type="refused"}');
    expect(ours().find((w) => w.includes('metrics export failed'))).toContain('otel.sdk.exporter.metric_data_point.exported{error.type="refused"}');
    expect(ms).toBeLessThan(10_000);
  });

  it('answering 500: every span lost as "500", without retries', async () => {
    receiver.reply = { status: 500 };
    const { health } = await twoRounds(receiver.url);
    expect(health.spans.lost).toEqual({ '500': 2 });
    expect(health.spans.exported).toBe(0);
    expect(receiver.of('/v1/traces')).toHaveLength(2);
    expect(ours()).toHaveLength(2);
  });

  it('answering 429 with Retry-After: retried a bounded number of times, then lost as "retryable_status"', async () => {
    receiver.reply = { status: 429, headers: { 'retry-after': '0' } };
    const { health } = await twoRounds(receiver.url);
    expect(health.spans.lost).toEqual({ retryable_status: 2 });
    // one attempt and at most five retries per export
    expect(receiver.of('/v1/traces').length).toBeGreaterThan(2);
    expect(receiver.of('/v1/traces').length).toBeLessThanOrEqual(12);
  });

  it('that never answers: each export gives up at its timeout; the spans are lost as "timeout"', async () => {
    receiver.reply = 'hang';
    const { health, ms } = await twoRounds(receiver.url);
    expect(health.spans.lost).toEqual({ timeout: 2 });
    expect(ms).toBeLessThan(10_000);
    expect(ours()).toHaveLength(2);
  });

  it('after shutdown(), health says nothing is exporting any more (it said so before)', async () => {
    const telemetry = startTelemetry({ endpoint: receiver.url, exportTimeoutMs: 400, handleExit: false });
    trace.getTracer('health').startSpan('before').end();
    await telemetry.forceFlush();
    expect(telemetry.health().spans.exporting).toBe(true);
    await telemetry.shutdown();
    expect(telemetry.health().spans).toEqual({ exported: 1, lost: {}, reasons: {}, inFlight: 0, queued: 0, queueCapacity: 2048, exporting: false });
  });

  it('answering 200: every span and data point exported, none lost (read after shutdown: not exporting)', async () => {
    const { health } = await twoRounds(receiver.url);
    expect(health.spans).toEqual({ exported: 2, lost: {}, reasons: {}, inFlight: 0, queued: 0, queueCapacity: 2048, exporting: false });
    expect(health.metricPoints.lost).toEqual({});
    expect(ours()).toEqual([]);
  });
});

describe('the health metrics', () => {
  it('hold the snapshot\'s numbers: otel.sdk.exporter.span.exported by error.type', async () => {
    const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 600_000 })] });
    const health = new ExportHealth(2048);
    health.attach(meterProvider.getMeter('health-test'), [{ signal: 'traces', type: 'otlp_http_span_exporter' }]);
    const exporter = guardSpanExporter(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces`, timeoutMillis: 400 }), { health, timeoutMs: 400 });
    const tracer = new BasicTracerProvider().getTracer('t');
    const batch = (n: number) => Array.from({ length: n }, (_, i) => tracer.startSpan(`s${i}`)).map((span) => (span.end(), span as unknown as ReadableSpan));
    const send = (spans: ReadableSpan[]) => new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));
    await send(batch(3));
    receiver.reply = { status: 500 };
    await send(batch(5));
    receiver.reply = { status: 503, headers: { 'retry-after': '0' } };
    await send(batch(2));
    await meterProvider.forceFlush();

    const component = { 'otel.component.type': 'otlp_http_span_exporter', 'otel.component.name': 'otlp_http_span_exporter/0' };
    const points = metrics
      .getMetrics()
      .at(-1)!
      .scopeMetrics.flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'otel.sdk.exporter.span.exported')
      .flatMap((m) => m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })));
    expect(points).toEqual([
      { attributes: component, value: 3 },
      { attributes: { ...component, 'error.type': '500' }, value: 5 },
      { attributes: { ...component, 'error.type': 'retryable_status' }, value: 2 },
    ]);
    expect(health.snapshot().spans).toMatchObject({ exported: 3, lost: { '500': 5, retryable_status: 2 }, inFlight: 0 });
    await meterProvider.shutdown();
  });
});

describe('the export guard', () => {
  const spans = [{}, {}] as ReadableSpan[];
  const exporter = (exportFn: SpanExporter['export']): SpanExporter => ({ export: exportFn, shutdown: async () => {} });
  const exportOnce = (guarded: SpanExporter) => new Promise<ExportResult>((resolve) => guarded.export(spans, resolve));

  it('answers FAILED to the SDK at its deadline, keeps the items in flight, and counts the late answer', async () => {
    const health = new ExportHealth();
    let late: ((result: ExportResult) => void) | undefined;
    const guarded = guardSpanExporter(exporter((_s, done) => (late = done)), { health, timeoutMs: 50 });
    const result = await exportOnce(guarded);
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toBe('traces export gave no answer within 2050 ms');
    expect(health.snapshot().spans).toMatchObject({ exported: 0, lost: {}, inFlight: 2 });
    late!({ code: ExportResultCode.SUCCESS });
    expect(health.snapshot().spans).toMatchObject({ exported: 2, lost: {}, inFlight: 0 });
  });

  it('gives up on a flush or shutdown its exporter never answers (a file system that hangs) at its deadline', async () => {
    const never = () => new Promise<void>(() => {});
    const options = { health: new ExportHealth(), timeoutMs: 50 };
    const spanGuard = guardSpanExporter({ export: () => {}, forceFlush: never, shutdown: never }, options);
    const metricGuard = guardMetricExporter({ export: () => {}, forceFlush: never, shutdown: never }, options);
    const within = async (what: string, work: Promise<void>) => {
      let timer: NodeJS.Timeout | undefined;
      const stillWaiting = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`${what}: still waiting after 10 s`), 10_000)));
      const outcome = await Promise.race([work.then(() => `${what}: given up on`), stillWaiting]);
      clearTimeout(timer);
      return outcome;
    };
    const started = Date.now();
    expect(
      await Promise.all([
        within('span flush', spanGuard.forceFlush!()),
        within('span shutdown', spanGuard.shutdown()),
        within('metric flush', metricGuard.forceFlush()),
        within('metric shutdown', metricGuard.shutdown()),
      ]),
    ).toEqual(['span flush: given up on', 'span shutdown: given up on', 'metric flush: given up on', 'metric shutdown: given up on']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_040);
  }, 15_000);

  it('once an export is past its deadline unanswered, gives up on a flush or shutdown waiting behind it at once', async () => {
    const health = new ExportHealth();
    const never = () => new Promise<void>(() => {});
    const guarded = guardSpanExporter({ export: () => {}, forceFlush: never, shutdown: never }, { health, timeoutMs: 50 });
    expect(await exportOnce(guarded)).toMatchObject({ code: ExportResultCode.FAILED, error: { message: 'traces export gave no answer within 2050 ms' } });
    const started = Date.now();
    await guarded.forceFlush!();
    await guarded.shutdown();
    expect(Date.now() - started).toBeLessThan(500);
    expect(health.snapshot().spans).toMatchObject({ exported: 0, lost: {}, inFlight: 2 });
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
    expect(health.snapshot().spans).toMatchObject({ exported: 0, lost: { export_failed: 2 }, inFlight: 0 });
  });
});

describe('dropped spans', () => {
  it('are counted exactly as the batch processor drops them at a full queue, in the snapshot and the SDK\'s metric', async () => {
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
    const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 600_000 })] });
    const health = new ExportHealth(10);
    const processor = new CountingBatchSpanProcessor(slow, {
      maxQueueSize: 10,
      maxExportBatchSize: 5,
      exportTimeoutMillis: 10_000,
      health,
      selfObsMeterProvider: () => meterProvider,
    });
    const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('drops');
    for (let i = 0; i < 30; i++) tracer.startSpan(`s${i}`).end();
    // the export a full batch starts inside end() reaches the exporter on the next turn, not inside end()
    expect(exported).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    // the first 5 went to the (stuck) exporter, 10 wait in the queue, the other 15 were dropped
    expect(exported).toBe(5);
    expect(health.snapshot().spans).toMatchObject({ lost: { queue_full: 15 }, queued: 10, queueCapacity: 10 });

    await meterProvider.forceFlush();
    const dropped = metrics
      .getMetrics()
      .at(-1)!
      .scopeMetrics.flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'otel.sdk.processor.span.processed')
      .flatMap((m) => m.dataPoints.filter((p) => p.attributes['error.type'] === 'queue_full').map((p) => p.value));
    expect(dropped).toEqual([15]);

    stuck!();
    await processor.forceFlush();
    expect(exported).toBe(15);
    for (let i = 0; i < 10; i++) tracer.startSpan(`after${i}`).end();
    expect(health.snapshot().spans).toMatchObject({ lost: { queue_full: 15 } });
    await meterProvider.shutdown();
  });
});
