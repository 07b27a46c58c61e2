/**
 * Wraps the span and metric exporters so every export ends within a bounded time and every item is
 * accounted for: before an export its spans / data points are in flight; after it they are exported
 * or lost with a cause (a FAILED result, an exporter that throws, or one that has not answered by its
 * deadline — reported FAILED to the SDK as a timeout, its late answer ignored). The OTLP exporters
 * bound their own retries by the same timeout, so the guard only fires for a hung exporter.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportHealth, Signal } from './health.js';
import { lossCauseOf } from './lossCause.js';

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

class ExportTimeoutError extends Error {
  override readonly name = 'ExportTimeoutError';
}

function guardedExport<T>(
  signal: Signal,
  options: GuardOptions,
  countItems: (items: T) => number,
  call: (items: T, done: (result: ExportResult) => void) => void,
): (items: T, done: (result: ExportResult) => void) => void {
  return (items, done) => {
    const count = countItems(items);
    options.health.exportStarted(signal, count);
    let settled = false;
    const settle = (result: ExportResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result.code === ExportResultCode.SUCCESS) options.health.exportSucceeded(signal, count);
      else options.health.exportFailed(signal, count, lossCauseOf(result.error), result.error);
      done(result);
    };
    const deadline = guardedTimeout(options.timeoutMs);
    const timer = setTimeout(
      () => settle({ code: ExportResultCode.FAILED, error: new ExportTimeoutError(`${signal} export timed out after ${deadline} ms`) }),
      deadline,
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
    export: guardedExport<ReadableSpan[]>('traces', options, (spans) => spans.length, (spans, done) => inner.export(spans, done)),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

export function guardMetricExporter(inner: PushMetricExporter, options: GuardOptions): PushMetricExporter {
  return {
    export: guardedExport<ResourceMetrics>('metrics', options, countDataPoints, (metrics, done) => inner.export(metrics, done)),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush(),
    selectAggregationTemporality: inner.selectAggregationTemporality?.bind(inner),
    selectAggregation: inner.selectAggregation?.bind(inner),
  };
}

export function countDataPoints(metrics: ResourceMetrics): number {
  let points = 0;
  for (const scope of metrics.scopeMetrics) for (const metric of scope.metrics) points += metric.dataPoints.length;
  return points;
}
