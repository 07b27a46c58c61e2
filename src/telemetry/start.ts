/**
 * startTelemetry(): one call that sets up the OpenTelemetry SDK for Node the way footprint-otel's
 * runs want it — resource, context manager, tracer provider with a bounded batch span queue, meter
 * provider with a periodic cumulative reader, global registration, exporter health and exit hooks —
 * sending to OTLP/HTTP when an endpoint is configured and to OTLP-JSON line files otherwise. Calling
 * it again while it runs returns the running handle; OTEL_SDK_DISABLED=true makes every handle a no-op.
 */
import { diag, DiagConsoleLogger } from '@opentelemetry/api';
import { diagLogLevelFromString, getStringFromEnv } from '@opentelemetry/core';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { DETAIL_ENV, type TraceDetail } from '../otel/index.js';
import { resolveConfig, type Destination, type StartTelemetryOptions, type TelemetryConfig } from './config.js';
import { installExitHooks } from './exitHooks.js';
import { fileMetricExporter, fileSpanExporter } from './files/fileExporters.js';
import { newSession } from './files/layout.js';
import { registerGlobals } from './globals.js';
import { guardedTimeout, guardMetricExporter, guardSpanExporter } from './guardedExporters.js';
import { emptyHealth, ExportHealth, type ExporterComponent, type TelemetryHealth } from './health.js';
import { otlpMetricExporter, otlpSpanExporter } from './otlp.js';
import { buildResource } from './resource.js';
import { CountingBatchSpanProcessor } from './spanQueue.js';

export interface TelemetryHandle {
  /** Where telemetry goes: the two OTLP URLs, the two files, or nowhere. */
  readonly destination: Destination;
  /** Exports everything recorded so far. Never rejects: failures are counted in health(). */
  forceFlush(): Promise<void>;
  /** Flushes, stops the SDK and unregisters it. Idempotent; never rejects. */
  shutdown(): Promise<void>;
  /** Spans and metric data points exported and lost (by cause) so far, and the span queue's depth. */
  health(): TelemetryHealth;
  /**
   * Like health(), after giving up on a flush at an exit deadline: spans still queued and items still
   * in flight are counted as lost (exit_deadline).
   */
  abandonedHealth(): TelemetryHealth;
  /**
   * The files this handle has written and kept (file default only), oldest first, and how many older
   * trace files rotation deleted (their spans are gone from disk); empty otherwise.
   */
  files(): { traces: string[]; metrics: string[]; removedTraceFiles: number };
}

const TELEMETRY_METER = 'footprint-otel.telemetry';

let running: TelemetryHandle | undefined;

export function startTelemetry(options: StartTelemetryOptions = {}): TelemetryHandle {
  if (running) {
    diag.warn('footprint-otel: startTelemetry() is already running; returning the running telemetry');
    return running;
  }
  const config = resolveConfig(options);
  const destination = config.destination;
  if (destination.kind === 'disabled') return disabledHandle();
  useLogLevelFromEnv();

  const health = new ExportHealth(config.maxQueueSize);
  const exporters = exportersFor(destination, config);
  const guard = { health, timeoutMs: exporters.timeoutMs };
  const resource = buildResource(options);
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: guardMetricExporter(exporters.metrics, guard),
        exportIntervalMillis: config.metricIntervalMs,
        exportTimeoutMillis: config.metricTimeoutMs,
      }),
    ],
  });
  const tracerProvider = new NodeTracerProvider({
    resource,
    spanProcessors: [
      new CountingBatchSpanProcessor(guardSpanExporter(exporters.spans, guard), {
        maxQueueSize: config.maxQueueSize,
        maxExportBatchSize: config.maxExportBatchSize,
        exportTimeoutMillis: guardedTimeout(exporters.timeoutMs),
        health,
        selfObsMeterProvider: meterProvider,
      }),
    ],
  });
  health.attach(meterProvider.getMeter(TELEMETRY_METER), exporters.components);
  const unregister = registerGlobals(tracerProvider, meterProvider);
  const restoreDetail = setTraceDetail(options.traceDetail);

  const forceFlush = async () => {
    await tracerProvider.forceFlush().catch(() => undefined);
    await meterProvider.forceFlush().catch(() => undefined);
  };
  let removeHooks = () => {};
  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      removeHooks();
      // traces first, so the last metric export carries the final trace-export failure counts
      await tracerProvider.shutdown().catch(() => undefined);
      await meterProvider.shutdown().catch(() => undefined);
      unregister();
      restoreDetail();
      running = undefined;
    })());
  if (config.handleExit) {
    removeHooks = installExitHooks({ flush: forceFlush, shutdown, shutdownTimeoutMs: guardedTimeout(exporters.timeoutMs) * 2 });
  }

  running = {
    destination,
    forceFlush,
    shutdown,
    health: () => health.snapshot(),
    abandonedHealth: () => health.abandonedSnapshot(),
    files: exporters.files,
  };
  return running;
}

function exportersFor(
  destination: Exclude<Destination, { kind: 'disabled' }>,
  config: TelemetryConfig,
): {
  spans: SpanExporter;
  metrics: PushMetricExporter;
  /** How long one export may take (OTEL_EXPORTER_OTLP_TIMEOUT is an OTLP setting; a file write gets its own). */
  timeoutMs: number;
  components: ExporterComponent[];
  files: TelemetryHandle['files'];
} {
  if (destination.kind === 'files') {
    const session = newSession();
    const spans = fileSpanExporter({ directory: destination.directory, session });
    const metrics = fileMetricExporter({ directory: destination.directory, session });
    return {
      spans,
      metrics,
      timeoutMs: FILE_WRITE_TIMEOUT_MS,
      components: FILE_COMPONENTS,
      files: () => ({ traces: spans.files(), metrics: metrics.files(), removedTraceFiles: spans.removedFiles() }),
    };
  }
  const target = { headers: config.headers, timeoutMs: config.exportTimeoutMs };
  return {
    spans: otlpSpanExporter({ ...target, url: destination.traces }),
    metrics: otlpMetricExporter({ ...target, url: destination.metrics }),
    timeoutMs: config.exportTimeoutMs,
    components: OTLP_COMPONENTS,
    files: () => ({ traces: [], metrics: [], removedTraceFiles: 0 }),
  };
}

/** A write of one batch to a local file that takes longer than this is stuck. */
const FILE_WRITE_TIMEOUT_MS = 30_000;

/** otel.component.type of each exporter, for otel.sdk.exporter.*.exported. */
const FILE_COMPONENTS: ExporterComponent[] = [
  { signal: 'traces', type: 'footprint_otlp_json_file_span_exporter' },
  { signal: 'metrics', type: 'footprint_otlp_json_file_metric_exporter' },
];
const OTLP_COMPONENTS: ExporterComponent[] = [
  { signal: 'traces', type: 'otlp_http_span_exporter' },
  { signal: 'metrics', type: 'otlp_http_metric_exporter' },
];

/** OTEL_SDK_DISABLED=true: nothing is started or registered, and the handle does nothing. */
function disabledHandle(): TelemetryHandle {
  return {
    destination: { kind: 'disabled' },
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
    health: emptyHealth,
    abandonedHealth: emptyHealth,
    files: () => ({ traces: [], metrics: [], removedTraceFiles: 0 }),
  };
}

/** OTEL_LOG_LEVEL (e.g. warn, debug) sends the SDK's and our diag messages to the console. */
function useLogLevelFromEnv(): void {
  const level = getStringFromEnv('OTEL_LOG_LEVEL');
  if (level !== undefined) diag.setLogger(new DiagConsoleLogger(), { logLevel: diagLogLevelFromString(level), suppressOverrideMessage: true });
}

/** The bridge reads its detail from the environment at every run start; returns the undo. */
function setTraceDetail(detail: TraceDetail | undefined): () => void {
  if (detail === undefined) return () => undefined;
  const previous = process.env[DETAIL_ENV];
  process.env[DETAIL_ENV] = detail;
  return () => {
    if (previous === undefined) delete process.env[DETAIL_ENV];
    else process.env[DETAIL_ENV] = previous;
  };
}
