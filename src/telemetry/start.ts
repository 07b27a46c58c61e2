/**
 * startTelemetry(): the OpenTelemetry NodeSDK set up the way footprint-otel's runs want it. NodeSDK
 * does what it does for any Node app (context manager, OTEL_PROPAGATORS, sampler and span limits from
 * the environment, resource detection, OTEL_LOG_LEVEL, OTEL_SDK_DISABLED, registration with the API);
 * we hand it the span processors and metric readers, so that every export passes our guard (bounded,
 * counted in health()), the span queue counts what it drops, and, when nothing names a destination,
 * telemetry goes to OTLP-JSON files. It registers the runtime's tracing and metrics instruments
 * (shutdown() unregisters them), so every run from then on is traced and counted, with the trace
 * detail and the content-capture choice made here once. Exit hooks flush at the end. Calling it
 * again while it runs throws TelemetryAlreadyStartedError (handing back the running handle would drop
 * the new options unseen, and its shutdown() would stop the first); after shutdown() it can be
 * started afresh.
 */
import { metrics } from '@opentelemetry/api';
import type { IMetricReader, PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { captureFromEnv } from '../events/index.js';
import { metricsInstrument, tracingInstrument } from '../otel/index.js';
import { registerInstrument } from '../runtime/index.js';
import { resolveConfig, type Destination, type StartTelemetryOptions, type TelemetryConfig } from './config.js';
import { TelemetryAlreadyStartedError } from './errors.js';
import { installExitHooks } from './exitHooks.js';
import { chooseMetricExporters, chooseSpanExporters, type Chosen } from './exporters.js';
import { fileMetricExporter, fileSpanExporter } from './files/fileExporters.js';
import { newSession } from './files/fileNames.js';
import { registerIntoFreeSlots, releaseSlots } from './globals.js';
import { guardedTimeout, guardMetricExporter, guardSpanExporter } from './guardedExporters.js';
import { emptyHealth, ExportHealth, type ExporterComponent, type TelemetryHealth } from './health.js';
import { resourceSetup } from './resource.js';
import { CountingBatchSpanProcessor } from './spanQueue.js';

export interface TelemetryHandle {
  /** Where telemetry goes: the files, the exporters the environment chose, or nowhere. */
  readonly destination: Destination;
  /** Exports everything recorded so far. Never rejects: failures are counted in health(). */
  forceFlush(): Promise<void>;
  /** Flushes, stops the SDK and unregisters what it registered (providers, instruments). Idempotent; never rejects. */
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
    throw new TelemetryAlreadyStartedError(
      `startTelemetry() is already running (telemetry to ${describeDestination(running.destination)}); ` +
        'use the handle the first call returned, or await its shutdown() before starting again',
    );
  }
  const config = resolveConfig(options);
  if (config.exportTo.kind === 'disabled') return disabledHandle();

  // The one content-capture decision of this process's telemetry: spans, errors and files follow it.
  const captureContent = options.captureContent ?? captureFromEnv();
  const health = new ExportHealth(config.maxQueueSize);
  const pipeline = pipelineFor(config, options, captureContent);
  const guard = { health, timeoutMs: pipeline.timeoutMs };
  const spanProcessors = pipeline.spans.map(
    (exporter) =>
      new CountingBatchSpanProcessor(guardSpanExporter(exporter, guard), {
        maxQueueSize: config.maxQueueSize,
        maxExportBatchSize: config.maxExportBatchSize,
        exportTimeoutMillis: guardedTimeout(pipeline.timeoutMs),
        health,
        // NodeSDK builds its meter provider inside start(), after the processors exist; the queue
        // resolves it when it first runs (see spanQueue.ts), by then the one NodeSDK registered.
        selfObsMeterProvider: () => metrics.getMeterProvider(),
      }),
  );
  const metricReaders: IMetricReader[] = pipeline.metrics.map(
    (exporter) =>
      new PeriodicExportingMetricReader({
        exporter: guardMetricExporter(exporter, guard),
        exportIntervalMillis: config.metricIntervalMs,
        exportTimeoutMillis: config.metricTimeoutMs,
      }),
  );
  const sdk = new NodeSDK({
    ...resourceSetup(options),
    spanProcessors,
    metricReaders,
    // the files carry traces and metrics only; with a chosen destination NodeSDK sets logs up from OTEL_LOGS_EXPORTER
    ...(config.exportTo.kind === 'files' ? { logRecordProcessors: [] } : {}),
  });
  const ours = registerIntoFreeSlots(() => sdk.start());
  health.attach(metrics.getMeter(TELEMETRY_METER), pipeline.components);
  const unregister = [
    registerInstrument(tracingInstrument({ detail: options.traceDetail, captureContent, semconv: options.semconv })),
    registerInstrument(metricsInstrument({ semconv: options.semconv })),
  ];

  const flushSpans = () => Promise.all(spanProcessors.map((p) => p.forceFlush().catch(() => undefined)));
  const forceFlush = async () => {
    await flushSpans();
    await Promise.all(metricReaders.map((r) => r.forceFlush().catch(() => undefined)));
  };
  let removeHooks = () => {};
  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      removeHooks();
      // spans first, so the last metric export (at the meter provider's shutdown) carries the final trace-export failure counts
      await flushSpans();
      await sdk.shutdown().catch(() => undefined);
      health.stopped();
      releaseSlots(ours);
      for (const off of unregister) off();
      running = undefined;
    })());
  if (config.handleExit) {
    removeHooks = installExitHooks({ flush: forceFlush, shutdown, shutdownTimeoutMs: guardedTimeout(pipeline.timeoutMs) * 2 });
  }

  running = {
    destination: pipeline.destination,
    forceFlush,
    shutdown,
    health: () => health.snapshot(),
    abandonedHealth: () => health.abandonedSnapshot(),
    files: pipeline.files,
  };
  return running;
}

interface Pipeline {
  destination: Destination;
  spans: SpanExporter[];
  metrics: PushMetricExporter[];
  /** How long one export may take (OTEL_EXPORTER_OTLP_TIMEOUT is an OTLP setting; a file write gets its own). */
  timeoutMs: number;
  /** The exporters' identities in otel.sdk.exporter.*.exported. */
  components: ExporterComponent[];
  files: TelemetryHandle['files'];
}

function pipelineFor(config: TelemetryConfig, options: StartTelemetryOptions, captureContent: boolean): Pipeline {
  const exportTo = config.exportTo;
  if (exportTo.kind === 'files') {
    const session = newSession();
    const files = { directory: exportTo.directory, session, ownerOnly: captureContent };
    const spans = fileSpanExporter(files);
    const metricFiles = fileMetricExporter(files);
    return {
      destination: { kind: 'files', directory: exportTo.directory },
      spans: [spans],
      metrics: [metricFiles],
      timeoutMs: FILE_WRITE_TIMEOUT_MS,
      components: FILE_COMPONENTS,
      files: () => ({ traces: spans.files(), metrics: metricFiles.files(), removedTraceFiles: spans.removedFiles() }),
    };
  }
  const overrides = { endpoint: options.endpoint, headers: options.headers, timeoutMs: options.exportTimeoutMs };
  const spans = chooseSpanExporters(overrides);
  const metricExporters = chooseMetricExporters(overrides);
  const describe = (chosen: Chosen<unknown>[]) => chosen.map((c) => c.target).join(', ') || 'none';
  const protocolOf = (chosen: Chosen<unknown>[]) => chosen.find((c) => c.protocol !== undefined)?.protocol;
  const protocols = { traces: protocolOf(spans), metrics: protocolOf(metricExporters) };
  return {
    destination: { kind: 'otlp', traces: describe(spans), metrics: describe(metricExporters), protocols },
    spans: spans.map((s) => s.exporter),
    metrics: metricExporters.map((m) => m.exporter),
    timeoutMs: config.exportTimeoutMs,
    components: [
      ...componentOf('traces', spans[0]),
      ...componentOf('metrics', metricExporters[0]),
    ],
    files: noFiles,
  };
}

/** A write of one batch to a local file that takes longer than this is stuck. */
const FILE_WRITE_TIMEOUT_MS = 30_000;

const FILE_COMPONENTS: ExporterComponent[] = [
  { signal: 'traces', type: 'footprint_otlp_json_file_span_exporter' },
  { signal: 'metrics', type: 'footprint_otlp_json_file_metric_exporter' },
];

/**
 * otel.component.type of a signal's (first) chosen exporter, as the semantic conventions name them;
 * the export counts of a signal are recorded under that one component.
 */
function componentOf(signal: 'traces' | 'metrics', chosen: Chosen<unknown> | undefined): ExporterComponent[] {
  if (chosen === undefined) return [];
  const item = signal === 'traces' ? 'span' : 'metric';
  const transport = { 'http/protobuf': 'otlp_http', 'http/json': 'otlp_http_json', grpc: 'otlp_grpc' } as const;
  const prefix = chosen.protocol === undefined ? 'console' : transport[chosen.protocol];
  return [{ signal, type: `${prefix}_${item}_exporter` }];
}

function describeDestination(destination: Destination): string {
  if (destination.kind === 'files') return `${destination.directory}/`;
  return destination.kind === 'otlp' ? `traces: ${destination.traces}; metrics: ${destination.metrics}` : 'nowhere';
}

/** OTEL_SDK_DISABLED=true: nothing is started or registered, and the handle does nothing. */
function disabledHandle(): TelemetryHandle {
  return {
    destination: { kind: 'disabled' },
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
    health: emptyHealth,
    abandonedHealth: emptyHealth,
    files: noFiles,
  };
}

function noFiles(): ReturnType<TelemetryHandle['files']> {
  return { traces: [], metrics: [], removedTraceFiles: 0 };
}
