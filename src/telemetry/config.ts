/**
 * startTelemetry's options merged with the standard OTEL_* environment variables into one plain,
 * resolved configuration. Code options win over the environment, the environment over defaults.
 * An endpoint anywhere (option, OTEL_EXPORTER_OTLP_ENDPOINT or a signal's own variable) means
 * OTLP/HTTP for both signals; with none, telemetry goes to OTLP-JSON line files on disk.
 */
import { getBooleanFromEnv, getNumberFromEnv, getStringFromEnv } from '@opentelemetry/core';
import path from 'node:path';
import type { TraceDetail } from '../otel/index.js';

export interface StartTelemetryOptions {
  /** service.name (default: OTEL_SERVICE_NAME, then service.name in OTEL_RESOURCE_ATTRIBUTES). */
  serviceName?: string;
  serviceVersion?: string;
  /** More resource attributes (they win over OTEL_RESOURCE_ATTRIBUTES). */
  resourceAttributes?: Record<string, string | number | boolean>;
  /** OTLP/HTTP base URL, e.g. http://localhost:4318; /v1/traces and /v1/metrics are appended. */
  endpoint?: string;
  /** Extra OTLP request headers (merged over OTEL_EXPORTER_OTLP_HEADERS). */
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
  /** Trace detail of every run: 'full' stage spans or 'semantic' only (sets FOOTPRINT_OTEL_DETAIL). */
  traceDetail?: TraceDetail;
}

export type Destination =
  | { kind: 'otlp'; traces: string; metrics: string }
  | { kind: 'files'; directory: string }
  | { kind: 'disabled' };

export interface TelemetryConfig {
  destination: Destination;
  headers?: Record<string, string>;
  metricIntervalMs: number;
  /** For one metric collection and export; the SDK requires it not to exceed the interval. */
  metricTimeoutMs: number;
  exportTimeoutMs: number;
  /** The span queue's capacity (OTEL_BSP_MAX_QUEUE_SIZE, default 2048). */
  maxQueueSize: number;
  /** Spans per export (OTEL_BSP_MAX_EXPORT_BATCH_SIZE, default 512, at most the queue size). */
  maxExportBatchSize: number;
  handleExit: boolean;
}

export const DEFAULT_FILE_DIRECTORY = 'telemetry';

export function resolveConfig(options: StartTelemetryOptions): TelemetryConfig {
  const maxQueueSize = positive(options.maxQueueSize ?? getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'), 2048);
  const metricIntervalMs = positive(options.metricExportIntervalMs ?? getNumberFromEnv('OTEL_METRIC_EXPORT_INTERVAL'), 60_000);
  return {
    destination: resolveDestination(options),
    headers: options.headers,
    metricIntervalMs,
    metricTimeoutMs: Math.min(positive(getNumberFromEnv('OTEL_METRIC_EXPORT_TIMEOUT'), 30_000), metricIntervalMs),
    exportTimeoutMs: positive(options.exportTimeoutMs ?? getNumberFromEnv('OTEL_EXPORTER_OTLP_TIMEOUT'), 10_000),
    maxQueueSize,
    maxExportBatchSize: Math.min(positive(options.maxExportBatchSize ?? getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'), 512), maxQueueSize),
    handleExit: options.handleExit ?? true,
  };
}

function resolveDestination(options: StartTelemetryOptions): Destination {
  if (getBooleanFromEnv('OTEL_SDK_DISABLED')) return { kind: 'disabled' };
  const base = options.endpoint ?? getStringFromEnv('OTEL_EXPORTER_OTLP_ENDPOINT');
  const traces = options.endpoint === undefined ? getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') : undefined;
  const metrics = options.endpoint === undefined ? getStringFromEnv('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT') : undefined;
  if (base === undefined && traces === undefined && metrics === undefined) {
    return { kind: 'files', directory: path.resolve(options.fileDirectory ?? DEFAULT_FILE_DIRECTORY) };
  }
  const root = (base ?? 'http://localhost:4318').replace(/\/+$/, '');
  return { kind: 'otlp', traces: traces ?? `${root}/v1/traces`, metrics: metrics ?? `${root}/v1/metrics` };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
