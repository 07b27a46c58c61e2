/**
 * The span queue's flush and shutdown wait for exports already handed to the exporter, not only for
 * the spans still queued: a full batch's export starts on the next turn of the event loop, and a
 * shutdown that came in between (a SIGTERM handled in the same turn) used to shut the exporter down
 * before that export reached it, so its batch was lost. An exporter that throws counts as answered.
 */
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { expect, it } from 'vitest';
import { ExportHealth } from '../../src/telemetry/health.js';
import { CountingBatchSpanProcessor } from '../../src/telemetry/spanQueue.js';

/** An exporter that writes down what reaches it, in order, and answers after `answerAfterMs`. */
function recordingExporter(answerAfterMs = 0, throws = false): { exporter: SpanExporter; seen: string[] } {
  const seen: string[] = [];
  const exporter: SpanExporter = {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      seen.push(`export ${spans.map((s) => s.name).join(',')}`);
      if (throws) throw new Error('exporter bug');
      setTimeout(() => {
        seen.push('answered');
        done({ code: ExportResultCode.SUCCESS });
      }, answerAfterMs);
    },
    async shutdown() {
      seen.push('exporter shutdown');
    },
  };
  return { exporter, seen };
}

function queueOf(exporter: SpanExporter) {
  const processor = new CountingBatchSpanProcessor(exporter, { maxQueueSize: 10, maxExportBatchSize: 2, exportTimeoutMillis: 10_000, health: new ExportHealth(10) });
  const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('queue');
  /** Ends two spans: a full batch, whose export is handed over at once and starts on the next turn. */
  const fullBatch = () => ['a', 'b'].forEach((name) => tracer.startSpan(name).end());
  return { processor, fullBatch };
}

it('shutdown in the same turn as a full batch: the batch reaches the exporter and is answered before the exporter shuts down', async () => {
  const { exporter, seen } = recordingExporter(20);
  const { processor, fullBatch } = queueOf(exporter);
  fullBatch();
  await processor.shutdown();
  expect(seen).toEqual(['export a,b', 'answered', 'exporter shutdown']);
});

it('forceFlush in the same turn resolves only once the handed-over batch is answered', async () => {
  const { exporter, seen } = recordingExporter(20);
  const { processor, fullBatch } = queueOf(exporter);
  fullBatch();
  await processor.forceFlush();
  seen.push('flushed');
  expect(seen).toEqual(['export a,b', 'answered', 'flushed']);
  await processor.shutdown();
});

it('an exporter that throws counts as answered: shutdown does not wait for it forever', async () => {
  const { exporter, seen } = recordingExporter(0, true);
  const { processor, fullBatch } = queueOf(exporter);
  fullBatch();
  await processor.shutdown();
  expect(seen).toEqual(['export a,b', 'exporter shutdown']);
});
