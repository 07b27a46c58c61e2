/**
 * The embedded default when no OTLP endpoint is configured: span and metric exporters that append
 * one line per export batch, each line an ExportTraceServiceRequest / ExportMetricsServiceRequest in
 * OTLP JSON exactly as the OTLP/HTTP JSON exporter would send it (the format of the Collector's file
 * exporter, which Jaeger's UI can load). Metrics are cumulative, like the OTLP path.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { JsonMetricsSerializer, JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { AggregationTemporality, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { LineFile } from './lineFile.js';

function write(file: LineFile, bytes: Uint8Array | undefined, done: (result: ExportResult) => void): void {
  if (bytes === undefined) {
    done({ code: ExportResultCode.FAILED, error: new Error('OTLP JSON serialization failed') });
    return;
  }
  file.append(Buffer.from(bytes).toString('utf8')).then(
    () => done({ code: ExportResultCode.SUCCESS }),
    (error: Error) => done({ code: ExportResultCode.FAILED, error }),
  );
}

export function fileSpanExporter(file: string): SpanExporter {
  const lines = new LineFile(file);
  return {
    export: (spans: ReadableSpan[], done) => write(lines, JsonTraceSerializer.serializeRequest(spans), done),
    forceFlush: () => lines.flush(),
    shutdown: () => lines.flush(),
  };
}

export function fileMetricExporter(file: string): PushMetricExporter {
  const lines = new LineFile(file);
  return {
    export: (metrics: ResourceMetrics, done) => write(lines, JsonMetricsSerializer.serializeRequest(metrics), done),
    forceFlush: () => lines.flush(),
    shutdown: () => lines.flush(),
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  };
}
