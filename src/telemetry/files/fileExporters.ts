/**
 * The embedded default when no OTLP endpoint is configured: span and metric exporters that write
 * one line per export batch, each line an ExportTraceServiceRequest / ExportMetricsServiceRequest in
 * OTLP JSON exactly as the OTLP/HTTP JSON exporter would send it (the format of the Collector's file
 * exporter, which Jaeger's UI can load). Metrics are cumulative, like the OTLP path. Each exporter
 * writes files of its own (see fileNames.ts and lineWriter.ts), so processes sharing a folder never clash.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { JsonMetricsSerializer, JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { AggregationTemporality, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { LineWriter, type LineWriterOptions } from './lineWriter.js';

export type FileExporterOptions = Omit<LineWriterOptions, 'signal'>;

export interface FileSpanExporter extends SpanExporter {
  /** The files this exporter has written to and kept, oldest first. */
  files(): string[];
  /** How many of its files rotation has deleted. */
  removedFiles(): number;
}

export interface FileMetricExporter extends PushMetricExporter {
  files(): string[];
  removedFiles(): number;
}

function write(lines: LineWriter, bytes: Uint8Array | undefined, done: (result: ExportResult) => void): void {
  if (bytes === undefined) {
    done({ code: ExportResultCode.FAILED, error: new Error('OTLP JSON serialization failed') });
    return;
  }
  lines.append(bytes).then(
    () => done({ code: ExportResultCode.SUCCESS }),
    (error: Error) => done({ code: ExportResultCode.FAILED, error }),
  );
}

export function fileSpanExporter(options: FileExporterOptions): FileSpanExporter {
  const lines = new LineWriter({ ...options, signal: 'traces' });
  return {
    export: (spans: ReadableSpan[], done) => write(lines, JsonTraceSerializer.serializeRequest(spans), done),
    forceFlush: () => lines.flush(),
    shutdown: () => lines.close(),
    files: () => lines.files(),
    removedFiles: () => lines.removedFiles(),
  };
}

export function fileMetricExporter(options: FileExporterOptions): FileMetricExporter {
  const lines = new LineWriter({ ...options, signal: 'metrics' });
  return {
    export: (metrics: ResourceMetrics, done) => write(lines, JsonMetricsSerializer.serializeRequest(metrics), done),
    forceFlush: () => lines.flush(),
    shutdown: () => lines.close(),
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
    files: () => lines.files(),
    removedFiles: () => lines.removedFiles(),
  };
}
