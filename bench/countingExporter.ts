/**
 * The span exporter the benchmarks trace into: it counts what it is handed and drops it, so a timing
 * holds the SDK's recording and batching but no serialisation or I/O.
 */
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

export interface CountingExporter extends SpanExporter {
  /** Spans handed to export so far. */
  readonly exported: number;
}

export function countingExporter(): CountingExporter {
  let exported = 0;
  return {
    get exported() {
      return exported;
    },
    export(spans: ReadableSpan[], done) {
      exported += spans.length;
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: async () => {},
    forceFlush: async () => {},
  };
}
