/**
 * The six OTLP exporters (traces and metrics over http/protobuf, http/json and gRPC), assembled from
 * the OTel exporter packages' public building blocks exactly as their own OTLPTraceExporter /
 * OTLPMetricExporter classes assemble them (same option conversion, environment variables,
 * transports, retries and metric temporality), with one difference: each response is read for a
 * partial success (partialSuccess.ts), which the classes only log, and the rejection travels with the
 * export's result. Their self-observability stays off: the export guard counts every export.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPMetricExporterBase, type OTLPMetricExporterOptions } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPExporterBase, type OTLPExporterNodeConfigBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { convertLegacyOtlpGrpcOptions, createEmptyMetadata, createOtlpGrpcExportDelegate } from '@opentelemetry/otlp-grpc-exporter-base';
import {
  JsonMetricsSerializer,
  JsonTraceSerializer,
  MetricsExporterMetricsHelper,
  ProtobufMetricsSerializer,
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
  type ISerializer,
} from '@opentelemetry/otlp-transformer';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { readingRejections, type AnsweredExportResult, type Rejection } from './partialSuccess.js';

export type OtlpExporterConfig = OTLPExporterNodeConfigBase & OTLPMetricExporterOptions;

type HttpEncoding = 'protobuf' | 'json';

const CONTENT_TYPE: Record<HttpEncoding, string> = { protobuf: 'application/x-protobuf', json: 'application/json' };

export function httpSpanExporter(encoding: HttpEncoding, config: OtlpExporterConfig): SpanExporter {
  const { serializer, take } = readingRejections(encoding === 'json' ? JsonTraceSerializer : ProtobufTraceSerializer, 'rejectedSpans');
  const options = convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', { 'Content-Type': CONTENT_TYPE[encoding] });
  return spanExporter(new OTLPExporterBase(createOtlpHttpExportDelegate(options, serializer, 'otlp_http_span_exporter', TraceExporterMetricsHelper, undefined)), take);
}

export function grpcSpanExporter(config: OtlpExporterConfig): SpanExporter {
  const { serializer, take } = readingRejections(ProtobufTraceSerializer, 'rejectedSpans');
  const delegate = createOtlpGrpcExportDelegate(
    grpcOptions(config, 'TRACES'),
    serializer as ISerializer<ReadableSpan[], unknown>,
    'otlp_grpc_span_exporter',
    TraceExporterMetricsHelper,
    undefined,
    'TraceExportService',
    '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  );
  return spanExporter(new OTLPExporterBase(delegate), take);
}

export function httpMetricExporter(encoding: HttpEncoding, config: OtlpExporterConfig): PushMetricExporter {
  const { serializer, take } = readingRejections(encoding === 'json' ? JsonMetricsSerializer : ProtobufMetricsSerializer, 'rejectedDataPoints');
  const options = convertLegacyHttpOptions(config, 'METRICS', 'v1/metrics', { 'Content-Type': CONTENT_TYPE[encoding] });
  const delegate = createOtlpHttpExportDelegate(options, serializer, 'otlp_http_metric_exporter', MetricsExporterMetricsHelper, undefined);
  return metricExporter(new OTLPMetricExporterBase(delegate, config), take);
}

export function grpcMetricExporter(config: OtlpExporterConfig): PushMetricExporter {
  const { serializer, take } = readingRejections(ProtobufMetricsSerializer, 'rejectedDataPoints');
  const delegate = createOtlpGrpcExportDelegate(
    grpcOptions(config, 'METRICS'),
    serializer as ISerializer<ResourceMetrics, unknown>,
    'otlp_grpc_metric_exporter',
    MetricsExporterMetricsHelper,
    undefined,
    'MetricsExportService',
    '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
  );
  return metricExporter(new OTLPMetricExporterBase(delegate, config), take);
}

/**
 * gRPC carries headers as request metadata: the code's headers become metadata, which the exporter
 * merges over OTEL_EXPORTER_OTLP_(TRACES_|METRICS_)HEADERS as the HTTP exporters merge headers.
 */
function grpcOptions(config: OtlpExporterConfig, signal: 'TRACES' | 'METRICS') {
  const { headers, ...rest } = config;
  if (headers === undefined || typeof headers === 'function') return convertLegacyOtlpGrpcOptions(rest, signal);
  const metadata = createEmptyMetadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
  return convertLegacyOtlpGrpcOptions({ ...rest, metadata }, signal);
}

/** The export's result, with the collector's rejection when it accepted the request only in part. */
function withRejection(take: () => Rejection | undefined, done: (result: AnsweredExportResult) => void): (result: ExportResult) => void {
  return (result) => {
    const rejection = take();
    done(rejection === undefined || result.code !== ExportResultCode.SUCCESS ? result : { ...result, rejection });
  };
}

function spanExporter(base: OTLPExporterBase<ReadableSpan[]>, take: () => Rejection | undefined): SpanExporter {
  return {
    export: (spans, done) => base.export(spans, withRejection(take, done)),
    shutdown: () => base.shutdown(),
    forceFlush: () => base.forceFlush(),
  };
}

function metricExporter(base: OTLPMetricExporterBase, take: () => Rejection | undefined): PushMetricExporter {
  return {
    export: (metrics, done) => base.export(metrics, withRejection(take, done)),
    shutdown: () => base.shutdown(),
    forceFlush: () => base.forceFlush(),
    selectAggregationTemporality: (kind) => base.selectAggregationTemporality(kind),
    selectAggregation: (kind) => base.selectAggregation(kind),
  };
}
