/**
 * The real OTel SDK for the conformance tests, both signals at once: a BasicTracerProvider exporting
 * into an InMemorySpanExporter (plus a processor that remembers each span's name and attributes at
 * start, for the sampling-relevant rules), and a MeterProvider whose PeriodicExportingMetricReader
 * exports into an InMemoryMetricExporter when flushed. Both are registered globally with the tracing
 * and metrics instruments, the way an application wires them; shutdown() undoes all of it.
 */
import { context, metrics, trace, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { tracingInstrument, type SemconvMode, type TraceDetail } from '../../../src/otel/index.js';
import { metricsInstrument } from '../../../src/otel/metrics/index.js';
import { registerInstrument } from '../../../src/runtime/index.js';
import type { StartSnapshot } from './spanRules.js';

class StartRecorder implements SpanProcessor {
  readonly starts = new Map<string, StartSnapshot>();
  onStart(span: Span, _parent: Context): void {
    this.starts.set(span.spanContext().spanId, { name: span.name, attributes: { ...span.attributes } });
  }
  onEnd(_span: ReadableSpan): void {}
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

export interface SemconvTelemetry {
  spans(): ReadableSpan[];
  startOf(span: ReadableSpan): StartSnapshot | undefined;
  /** Flushes the metric reader and returns everything it exported (cumulative since start). */
  collectMetrics(): Promise<ResourceMetrics>;
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  captureContent?: boolean;
  detail?: TraceDetail;
  /** The names to emit (docs/conventions.md); default: the v1.41 names on spans (what checkTelemetry judges by default), every name of both modes on metrics. */
  semconv?: SemconvMode;
}

/** Registers both pipelines globally; one at a time per test file (call shutdown() before the next). */
export function startSemconvTelemetry(options: TelemetryOptions = {}): SemconvTelemetry {
  const spanExporter = new InMemorySpanExporter();
  const starts = new StartRecorder();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [starts, new SimpleSpanProcessor(spanExporter)] });
  trace.setGlobalTracerProvider(tracerProvider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // The interval never fires within a test: collection happens only on forceFlush().
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  const unregister = [
    registerInstrument(tracingInstrument({ captureContent: options.captureContent ?? false, detail: options.detail ?? 'full', semconv: options.semconv ?? 'v1.41' })),
    registerInstrument(metricsInstrument({ semconv: options.semconv ?? 'both' })),
  ];
  return {
    spans: () => spanExporter.getFinishedSpans(),
    startOf: (span) => starts.starts.get(span.spanContext().spanId),
    async collectMetrics() {
      metricExporter.reset();
      await reader.forceFlush();
      const exported = metricExporter.getMetrics();
      if (exported.length !== 1) throw new Error(`expected one metric export, got ${exported.length}`);
      return exported[0]!;
    },
    async shutdown() {
      for (const undo of unregister) undo();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      context.disable();
      metrics.disable();
    },
  };
}
