/**
 * The span pipeline: a BatchSpanProcessor (bounded queue, so memory stays bounded while the
 * collector is down) that counts the spans it drops. The SDK drops silently once its queue holds
 * maxQueueSize spans; this processor mirrors the queue's length — sampled spans offered, minus spans
 * handed to the exporter — and counts every span offered while it is full.
 */
import { TraceFlags, type Context } from '@opentelemetry/api';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export interface SpanQueueOptions {
  maxQueueSize: number;
  maxExportBatchSize: number;
  /** How long the processor waits for one export before giving up on it. */
  exportTimeoutMillis: number;
  onDrop: () => void;
}

export class CountingBatchSpanProcessor implements SpanProcessor {
  private readonly batch: BatchSpanProcessor;
  private queued = 0;
  private closed = false;

  constructor(
    exporter: SpanExporter,
    private readonly options: SpanQueueOptions,
  ) {
    const handOff: SpanExporter = {
      export: (spans, done) => {
        this.queued = Math.max(0, this.queued - spans.length);
        exporter.export(spans, done);
      },
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
    this.batch = new BatchSpanProcessor(handOff, {
      maxQueueSize: options.maxQueueSize,
      maxExportBatchSize: options.maxExportBatchSize,
      exportTimeoutMillis: options.exportTimeoutMillis,
    });
  }

  onStart(span: Span, parentContext: Context): void {
    this.batch.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (!this.closed && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0) {
      if (this.queued >= this.options.maxQueueSize) this.options.onDrop();
      else this.queued++;
    }
    this.batch.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.batch.forceFlush();
  }

  shutdown(): Promise<void> {
    this.closed = true;
    return this.batch.shutdown();
  }
}
