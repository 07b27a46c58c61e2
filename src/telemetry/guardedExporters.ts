/**
 * Wraps the span and metric exporters so every export ends within a bounded time and every failure
 * is counted: a FAILED result, an exporter that throws, and one that has not answered by its
 * deadline (it is then reported FAILED to the SDK, and its late answer is ignored). The OTLP
 * exporters bound their own retries by the same timeout, so the guard only fires for a hung exporter.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportHealth, Signal } from './health.js';

/** Extra time the guard grants past the exporter's own timeout before it gives up on an answer. */
const GRACE_MS = 2_000;

export interface GuardOptions {
  health: ExportHealth;
  /** The exporter's own timeout; the guard's deadline is this plus a grace period. */
  timeoutMs: number;
}

/** Total time an export may take under the guard (what the BatchSpanProcessor should wait). */
export function guardedTimeout(timeoutMs: number): number {
  return timeoutMs + GRACE_MS;
}

function guardedExport<T>(
  signal: Signal,
  options: GuardOptions,
  call: (items: T, done: (result: ExportResult) => void) => void,
): (items: T, done: (result: ExportResult) => void) => void {
  return (items, done) => {
    let settled = false;
    const settle = (result: ExportResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result.code !== ExportResultCode.SUCCESS) options.health.exportFailed(signal, result.error);
      done(result);
    };
    const timer = setTimeout(
      () => settle({ code: ExportResultCode.FAILED, error: new Error(`${signal} export timed out after ${guardedTimeout(options.timeoutMs)} ms`) }),
      guardedTimeout(options.timeoutMs),
    );
    timer.unref();
    try {
      call(items, settle);
    } catch (error) {
      settle({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
    }
  };
}

export function guardSpanExporter(inner: SpanExporter, options: GuardOptions): SpanExporter {
  return {
    export: guardedExport<ReadableSpan[]>('traces', options, (spans, done) => inner.export(spans, done)),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

export function guardMetricExporter(inner: PushMetricExporter, options: GuardOptions): PushMetricExporter {
  return {
    export: guardedExport<ResourceMetrics>('metrics', options, (metrics, done) => inner.export(metrics, done)),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush(),
    selectAggregationTemporality: inner.selectAggregationTemporality?.bind(inner),
    selectAggregation: inner.selectAggregation?.bind(inner),
  };
}
