/**
 * Wraps the span and metric exporters so every export ends within a bounded time for the SDK and
 * every item is accounted for: before an export its spans / data points are in flight; after it they
 * are exported or lost with a cause (a FAILED result, or an exporter that throws). An exporter that
 * has not answered by its deadline is reported FAILED to the SDK, so the pipeline moves on; its items
 * stay in flight until it does answer (a slow write that lands is exported, not lost) or the process
 * ends (then the exit deadline's account counts them). The OTLP exporters bound their own retries by
 * the same timeout and answer with a timeout error then, so the guard only fires for a hung exporter.
 * A success that carries a collector's rejection (an OTLP partial success, partialSuccess.ts) counts
 * the rejected items as lost (`rejected`) and the rest as exported.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportHealth, Signal } from './health.js';
import { lossCauseOf } from './lossCause.js';
import type { AnsweredExportResult } from './partialSuccess.js';

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

/** When each export the exporter has not answered yet began (performance.now()). */
type Unanswered = Set<{ startedAt: number }>;

function guardedExport<T>(
  signal: Signal,
  options: GuardOptions,
  unanswered: Unanswered,
  countItems: (items: T) => number,
  call: (items: T, done: (result: AnsweredExportResult) => void) => void,
): (items: T, done: (result: ExportResult) => void) => void {
  return (items, done) => {
    const count = countItems(items);
    options.health.exportStarted(signal, count);
    const started = { startedAt: performance.now() };
    unanswered.add(started);
    let accounted = false;
    let answeredSdk = false;
    const answerSdk = (result: ExportResult) => {
      if (answeredSdk) return;
      answeredSdk = true;
      clearTimeout(timer);
      done(result);
    };
    const settle = (result: AnsweredExportResult) => {
      unanswered.delete(started);
      if (!accounted) {
        accounted = true;
        if (result.code !== ExportResultCode.SUCCESS) options.health.exportFailed(signal, count, lossCauseOf(result.error), result.error);
        else if (result.rejection) options.health.exportPartlyRejected(signal, count, result.rejection);
        else options.health.exportSucceeded(signal, count);
      }
      answerSdk(result.code === ExportResultCode.SUCCESS ? { code: ExportResultCode.SUCCESS } : result);
    };
    const deadline = guardedTimeout(options.timeoutMs);
    const timer = setTimeout(
      () => answerSdk({ code: ExportResultCode.FAILED, error: new ExportTimeoutError(`${signal} export gave no answer within ${deadline} ms`) }),
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

/**
 * An exporter's flush or shutdown, given up on at the guard's deadline: a file exporter waits for its
 * pending writes, and a disk that never answers would hold the handle's forceFlush() and shutdown()
 * (and the app's exit) forever. The deadline runs from the start of the oldest export the exporter
 * has not answered (what a flush waits for), so once that export is past its own deadline a flush or
 * shutdown gives up at once instead of waiting again. What was in flight stays counted as in flight.
 */
function bounded(work: () => Promise<void> | undefined, options: GuardOptions, unanswered: Unanswered): Promise<void> {
  const deadline = guardedTimeout(options.timeoutMs);
  let from = performance.now();
  for (const { startedAt } of unanswered) from = Math.min(from, startedAt);
  const remaining = Math.max(0, from + deadline - performance.now());
  let timer: NodeJS.Timeout | undefined;
  const givenUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, remaining);
    timer.unref();
  });
  return Promise.race([Promise.resolve().then(work), givenUp]).finally(() => clearTimeout(timer));
}

export function guardSpanExporter(inner: SpanExporter, options: GuardOptions): SpanExporter {
  const unanswered: Unanswered = new Set();
  return {
    export: guardedExport<ReadableSpan[]>('traces', options, unanswered, (spans) => spans.length, (spans, done) => inner.export(spans, done)),
    shutdown: () => bounded(() => inner.shutdown(), options, unanswered),
    forceFlush: () => bounded(() => inner.forceFlush?.(), options, unanswered),
  };
}

export function guardMetricExporter(inner: PushMetricExporter, options: GuardOptions): PushMetricExporter {
  const unanswered: Unanswered = new Set();
  return {
    export: guardedExport<ResourceMetrics>('metrics', options, unanswered, countDataPoints, (metrics, done) => inner.export(metrics, done)),
    shutdown: () => bounded(() => inner.shutdown(), options, unanswered),
    forceFlush: () => bounded(() => inner.forceFlush(), options, unanswered),
    selectAggregationTemporality: inner.selectAggregationTemporality?.bind(inner),
    selectAggregation: inner.selectAggregation?.bind(inner),
  };
}

function countDataPoints(metrics: ResourceMetrics): number {
  let points = 0;
  for (const scope of metrics.scopeMetrics) for (const metric of scope.metrics) points += metric.dataPoints.length;
  return points;
}
