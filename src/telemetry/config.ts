/**
 * startTelemetry's options, and the few settings NodeSDK does not own: where telemetry goes (the
 * OTLP-JSON files unless something names an exporter or an endpoint), the span queue's size, the
 * metric reader's interval and the export timeout our exporter guard waits for. Code options win over
 * the environment, the environment over defaults. The exporter names and OTLP protocol are read in
 * exporters.ts; everything else (endpoints and headers for sending, sampler, propagators, resource
 * detectors) by NodeSDK and the OTLP exporters themselves.
 */
import { getBooleanFromEnv, getNumberFromEnv, getStringFromEnv } from '@opentelemetry/core';
import path from 'node:path';
import type { SemconvMode, TraceDetail } from '../otel/index.js';
import type { OtlpProtocol } from './exporters.js';
import { checkOtlpEndpoint } from './endpoint.js';
import { checkExporterSettings } from './exporters.js';

export interface StartTelemetryOptions {
  /** service.name (wins over OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES). */
  serviceName?: string;
  /** service.version (OTEL_RESOURCE_ATTRIBUTES wins over it, as NodeSDK merges detected attributes last). */
  serviceVersion?: string;
  /** More resource attributes (OTEL_RESOURCE_ATTRIBUTES wins over them, as for serviceVersion). */
  resourceAttributes?: Record<string, string | number | boolean>;
  /** OTLP base URL, e.g. http://localhost:4318 (HTTP: /v1/traces and /v1/metrics are appended; gRPC: used as is). Wins over the OTEL_EXPORTER_OTLP_*ENDPOINT variables. */
  endpoint?: string;
  /** Extra OTLP request headers (merged over OTEL_EXPORTER_OTLP_HEADERS by the exporters). */
  headers?: Record<string, string>;
  /** Metric export interval (default OTEL_METRIC_EXPORT_INTERVAL, then 60000). */
  metricExportIntervalMs?: number;
  /** Longest one export may take, retries included (default OTEL_EXPORTER_OTLP_TIMEOUT, then 10000). */
  exportTimeoutMs?: number;
  /** The folder the file default writes its traces-*.jsonl and metrics-*.jsonl files into (default ./telemetry). */
  fileDirectory?: string;
  /** The span queue's capacity (default OTEL_BSP_MAX_QUEUE_SIZE, then 2048). Spans past it are dropped and counted. */
  maxQueueSize?: number;
  /** Spans per export (default OTEL_BSP_MAX_EXPORT_BATCH_SIZE, then 512; at most the queue size). */
  maxExportBatchSize?: number;
  /** Flush on beforeExit and shut down on SIGTERM/SIGINT (default true). */
  handleExit?: boolean;
  /** Trace detail of every run: 'full' stage spans or 'semantic' only (default FOOTPRINT_OTEL_DETAIL, then 'full'). */
  traceDetail?: TraceDetail;
  /**
   * Record prompts, completions, tool arguments, results and error text on spans, and create the
   * files owner-only (0600) (default OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, then off).
   */
  captureContent?: boolean;
  /**
   * Which conventions' names to emit (docs/conventions.md): 'current' (the GenAI conventions' current
   * model), 'v1.41', or 'both' for a migration window (default OTEL_SEMCONV_STABILITY_OPT_IN, then 'current').
   */
  semconv?: SemconvMode;
}

/**
 * Where telemetry goes. 'files': the OTLP-JSON line files. 'otlp': the exporters the standard
 * variables choose (OTLP over http/protobuf by default; console or none when OTEL_TRACES_EXPORTER /
 * OTEL_METRICS_EXPORTER say so): each signal's targets (OTLP URLs, 'console'; comma-separated; 'none')
 * and the OTLP protocol of each signal. 'disabled': OTEL_SDK_DISABLED=true.
 */
export type Destination =
  | { kind: 'otlp'; traces: string; metrics: string; protocols: { traces?: OtlpProtocol; metrics?: OtlpProtocol } }
  | { kind: 'files'; directory: string }
  | { kind: 'disabled' };

export interface TelemetryConfig {
  /** 'env': the standard exporter variables decide (exporters.ts); 'files': the OTLP-JSON session files in this folder; 'disabled': OTEL_SDK_DISABLED. */
  exportTo: { kind: 'env' } | { kind: 'files'; directory: string } | { kind: 'disabled' };
  metricIntervalMs: number;
  /** For one metric collection and export; the SDK requires it not to exceed the interval. */
  metricTimeoutMs: number;
  /** What the exporter guard allows one export (the exporters' own timeout). */
  exportTimeoutMs: number;
  /** The span queue's capacity (OTEL_BSP_MAX_QUEUE_SIZE, default 2048). */
  maxQueueSize: number;
  /** Spans per export (OTEL_BSP_MAX_EXPORT_BATCH_SIZE, default 512, at most the queue size). */
  maxExportBatchSize: number;
  handleExit: boolean;
}

export const DEFAULT_FILE_DIRECTORY = 'telemetry';

const ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'] as const;

/** Any of these set means the user chose a destination; with none (and no endpoint option), the files. */
export const DESTINATION_VARIABLES = ['OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER', ...ENDPOINT_VARIABLES] as const;

export function resolveConfig(options: StartTelemetryOptions): TelemetryConfig {
  const maxQueueSize = positive(options.maxQueueSize ?? getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'), 2048);
  const metricIntervalMs = positive(options.metricExportIntervalMs ?? getNumberFromEnv('OTEL_METRIC_EXPORT_INTERVAL'), 60_000);
  return {
    exportTo: resolveExportTo(options),
    metricIntervalMs,
    metricTimeoutMs: Math.min(positive(getNumberFromEnv('OTEL_METRIC_EXPORT_TIMEOUT'), 30_000), metricIntervalMs),
    exportTimeoutMs: positive(options.exportTimeoutMs ?? getNumberFromEnv('OTEL_EXPORTER_OTLP_TIMEOUT'), 10_000),
    maxQueueSize,
    maxExportBatchSize: Math.min(positive(options.maxExportBatchSize ?? getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'), 512), maxQueueSize),
    handleExit: options.handleExit ?? true,
  };
}

function resolveExportTo(options: StartTelemetryOptions): TelemetryConfig['exportTo'] {
  if (getBooleanFromEnv('OTEL_SDK_DISABLED')) return { kind: 'disabled' };
  const chosen = options.endpoint !== undefined || DESTINATION_VARIABLES.some((name) => getStringFromEnv(name) !== undefined);
  if (chosen) {
    checkEndpoints(options);
    checkExporterSettings();
    return { kind: 'env' };
  }
  return { kind: 'files', directory: path.resolve(options.fileDirectory ?? DEFAULT_FILE_DIRECTORY) };
}

/** A configured endpoint that no exporter could use is refused here, in one line (EndpointError, a TelemetryConfigError). */
function checkEndpoints(options: StartTelemetryOptions): void {
  if (options.endpoint !== undefined) checkOtlpEndpoint({ value: options.endpoint, source: 'the endpoint option' });
  for (const name of ENDPOINT_VARIABLES) {
    const value = getStringFromEnv(name);
    if (value !== undefined) checkOtlpEndpoint({ value, source: name });
  }
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
