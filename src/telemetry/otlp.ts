/**
 * OTLP/HTTP exporters for a configured endpoint: traces as JSON (exporter-trace-otlp-http), metrics
 * as protobuf (exporter-metrics-otlp-proto — the encoding Prometheus's and VictoriaMetrics's OTLP
 * receivers both accept), cumulative temporality (Prometheus drops delta). Headers from
 * OTEL_EXPORTER_OTLP_HEADERS and the signal variables are merged in by the exporters themselves.
 */
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { AggregationTemporalityPreference } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

export interface OtlpTarget {
  url: string;
  headers?: Record<string, string>;
  timeoutMs: number;
}

export function otlpSpanExporter(target: OtlpTarget): SpanExporter {
  return new OTLPTraceExporter({ url: target.url, headers: target.headers, timeoutMillis: target.timeoutMs });
}

export function otlpMetricExporter(target: OtlpTarget): PushMetricExporter {
  return new OTLPMetricExporter({
    url: target.url,
    headers: target.headers,
    timeoutMillis: target.timeoutMs,
    temporalityPreference: AggregationTemporalityPreference.CUMULATIVE,
  });
}
