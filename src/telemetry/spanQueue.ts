/**
 * The span pipeline: the SDK's BatchSpanProcessor (bounded queue, so memory stays bounded while the
 * collector is down), with the SDK's own self-observability on (otel.sdk.processor.span.processed,
 * whose error.type=queue_full series counts the spans it drops, and the queue's size and capacity),
 * and a mirror of its queue's length — sampled spans offered, minus spans handed to the exporter —
 * kept in ExportHealth, so the app can see the queue filling (the demo waits on it) and the summary
 * counts the same drops the SDK's metric does.
 *
 * The SDK's processor starts an export inside span.end() when its buffer reaches a full batch, and
 * the exporter serialises the batch before it returns: on the hot path of whatever ended that span
 * (an MCP server answering, a tool call returning). The hand-off here starts the export on the
 * next turn of the event loop instead (setImmediate), so the span's end costs the same every time.
 *
 * forceFlush() and shutdown() wait for every export already handed over, not only for the spans
 * still queued (all the SDK's processor waits for): a SIGTERM handled between a scheduled export's
 * start and its answer would otherwise shut the exporter down under it, and its batch was lost.
 */
import { TraceFlags, type Context, type MeterProvider } from '@opentelemetry/api';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ExportHealth } from './health.js';

export interface SpanQueueOptions {
  maxQueueSize: number;
  maxExportBatchSize: number;
  /** How long the processor waits for one export before giving up on it. */
  exportTimeoutMillis: number;
  health: ExportHealth;
  /**
   * Where the SDK's batch processor records its otel.sdk.processor.* metrics. Asked when the queue
   * first runs, not when it is built: NodeSDK creates its meter provider inside start(), after it has
   * been handed the span processors.
   */
  selfObsMeterProvider?: () => MeterProvider;
}

export class CountingBatchSpanProcessor implements SpanProcessor {
  private built?: BatchSpanProcessor;
  private queued = 0;
  private closed = false;
  /** Exports handed over and not yet answered. */
  private readonly exporting = new Set<Promise<void>>();

  constructor(
    private readonly exporter: SpanExporter,
    private readonly options: SpanQueueOptions,
  ) {}

  private get batch(): BatchSpanProcessor {
    this.built ??= this.buildBatch();
    return this.built;
  }

  private buildBatch(): BatchSpanProcessor {
    const { exporter, options } = this;
    const handOff: SpanExporter = {
      export: (spans, done) => {
        const handed = Math.min(this.queued, spans.length);
        this.queued -= handed;
        options.health.spansHandedToExporter(handed);
        this.exportNextTurn(spans, done);
      },
      shutdown: () => this.exportsAnswered().then(() => exporter.shutdown()),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
    // sdk-trace-base's BatchSpanProcessor hands its config on to @opentelemetry/sdk-trace's, whose
    // options include the (experimental) selfObsMeterProvider that the shim's type does not list.
    const config = {
      maxQueueSize: options.maxQueueSize,
      maxExportBatchSize: options.maxExportBatchSize,
      exportTimeoutMillis: options.exportTimeoutMillis,
      selfObsMeterProvider: options.selfObsMeterProvider?.(),
    };
    return new BatchSpanProcessor(handOff, config);
  }

  onStart(span: Span, parentContext: Context): void {
    this.batch.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (!this.closed && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0) {
      if (this.queued >= this.options.maxQueueSize) {
        this.options.health.spanDropped();
      } else {
        this.queued++;
        this.options.health.spanQueued();
      }
    }
    this.batch.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.batch.forceFlush().finally(() => this.exportsAnswered());
  }

  /**
   * One batch to the exporter on the next turn, in `exporting` from now until it answers (a throw is
   * a FAILED answer), so a flush or shutdown in this turn waits for it.
   */
  private exportNextTurn(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    let answered!: () => void;
    const pending = new Promise<void>((resolve) => (answered = resolve));
    this.exporting.add(pending);
    const answer = (result: ExportResult) => {
      if (!this.exporting.delete(pending)) return;
      answered();
      done(result);
    };
    setImmediate(() => {
      try {
        this.exporter.export(spans, answer);
      } catch (error) {
        answer({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
      }
    });
  }

  /** Resolves once every export handed over so far has been answered (the guard bounds how long that takes). */
  private exportsAnswered(): Promise<void> {
    return Promise.all(this.exporting).then(() => undefined);
  }

  shutdown(): Promise<void> {
    this.closed = true;
    return this.batch.shutdown();
  }
}
