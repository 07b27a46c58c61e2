/**
 * The span and metric exporters the standard variables name, built here rather than inside NodeSDK
 * because NodeSDK keeps the processors it builds to itself, and every export must pass through our
 * guard (bounded, counted) and our counting span queue. The choice follows NodeSDK's own rules:
 * OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER (otlp, console, none; a comma list; default otlp;
 * "none" anywhere in the list turns the signal off, as NodeSDK does for metrics) and
 * OTEL_EXPORTER_OTLP_{TRACES,METRICS}_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf by
 * default, http/json, grpc). Endpoint, headers, timeout, compression and temporality variables are
 * read by the OTLP exporters themselves; the endpoint/headers/timeout options override them.
 */
import { diag } from '@opentelemetry/api';
import { getStringFromEnv, getStringListFromEnv } from '@opentelemetry/core';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ConsoleMetricExporter, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { ConsoleSpanExporter, type SpanExporter } from '@opentelemetry/sdk-trace-base';

type Signal = 'traces' | 'metrics';
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
const EXPORTER_NAMES = ['otlp', 'console'] as const;
type ExporterName = (typeof EXPORTER_NAMES)[number];

export interface ExporterOverrides {
  /** The endpoint option: an OTLP base URL. */
  endpoint?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One chosen exporter, where it sends ('console' for the console) and, for OTLP, its protocol. */
export interface Chosen<T> {
  exporter: T;
  target: string;
  protocol?: OtlpProtocol;
}

/** How each exporter name and OTLP protocol builds a signal's exporter. */
type Builders<T> = { console: () => T } & Record<OtlpProtocol, (config: OtlpConfig) => T>;

const SPAN_EXPORTERS: Builders<SpanExporter> = {
  console: () => new ConsoleSpanExporter(),
  'http/protobuf': (config) => new ProtobufTraceExporter(config),
  'http/json': (config) => new JsonTraceExporter(config),
  grpc: (config) => new GrpcTraceExporter(config),
};

const METRIC_EXPORTERS: Builders<PushMetricExporter> = {
  console: () => new ConsoleMetricExporter(),
  'http/protobuf': (config) => new ProtobufMetricExporter(config),
  'http/json': (config) => new JsonMetricExporter(config),
  grpc: (config) => new GrpcMetricExporter(config),
};

export function chooseSpanExporters(overrides: ExporterOverrides): Chosen<SpanExporter>[] {
  return chooseExporters('traces', SPAN_EXPORTERS, overrides);
}

export function chooseMetricExporters(overrides: ExporterOverrides): Chosen<PushMetricExporter>[] {
  return chooseExporters('metrics', METRIC_EXPORTERS, overrides);
}

function chooseExporters<T>(signal: Signal, build: Builders<T>, overrides: ExporterOverrides): Chosen<T>[] {
  return exporterNames(signal).map((name) => {
    if (name === 'console') return { exporter: build.console(), target: 'console' };
    const protocol = protocolOf(signal);
    const exporter = build[protocol](otlpConfig(signal, protocol, overrides));
    return { exporter, target: otlpUrl(signal, protocol, overrides), protocol };
  });
}

/** OTEL_{SIGNAL}_EXPORTER as a list of known names; "none" anywhere means none; unknown names are reported and skipped. */
function exporterNames(signal: Signal): ExporterName[] {
  const variable = `OTEL_${signal.toUpperCase()}_EXPORTER`;
  const listed = [...new Set(getStringListFromEnv(variable) ?? [])];
  if (listed.includes('none')) return [];
  if (listed.length === 0) return ['otlp'];
  const known = listed.filter((name): name is ExporterName => (EXPORTER_NAMES as readonly string[]).includes(name));
  for (const name of listed.filter((n) => !known.includes(n as ExporterName))) {
    diag.warn(`footprint-otel: ${variable}=${name} is not supported (otlp, console, none); it is ignored`);
  }
  return known;
}

function protocolOf(signal: Signal): OtlpProtocol {
  const variable = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`;
  const value = (getStringFromEnv(variable) ?? getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL'))?.trim() || 'http/protobuf';
  if ((PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
  diag.warn(`footprint-otel: OTLP protocol "${value}" is not supported (${PROTOCOLS.join(', ')}); using http/protobuf`);
  return 'http/protobuf';
}

interface OtlpConfig {
  url?: string;
  headers?: Record<string, string>;
  timeoutMillis?: number;
}

/** Only what the code set: an exporter given no url, headers or timeout reads its own variables. */
function otlpConfig(signal: Signal, protocol: OtlpProtocol, overrides: ExporterOverrides): OtlpConfig {
  const url = overrides.endpoint === undefined ? undefined : urlFor(signal, protocol, overrides.endpoint);
  return {
    ...(url === undefined ? {} : { url }),
    // gRPC carries headers as metadata; it reads OTEL_EXPORTER_OTLP_HEADERS itself
    ...(overrides.headers === undefined || protocol === 'grpc' ? {} : { headers: overrides.headers }),
    ...(overrides.timeoutMs === undefined ? {} : { timeoutMillis: overrides.timeoutMs }),
  };
}

function urlFor(signal: Signal, protocol: OtlpProtocol, base: string): string {
  const root = base.replace(/\/+$/, '');
  return protocol === 'grpc' ? root : `${root}/v1/${signal}`;
}

/** Where an OTLP exporter sends, by the same rules the exporters apply (for messages, not for sending). */
function otlpUrl(signal: Signal, protocol: OtlpProtocol, overrides: ExporterOverrides): string {
  const own = getStringFromEnv(`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`);
  const base = getStringFromEnv('OTEL_EXPORTER_OTLP_ENDPOINT') ?? (protocol === 'grpc' ? 'http://localhost:4317' : 'http://localhost:4318');
  return overrides.endpoint !== undefined ? urlFor(signal, protocol, overrides.endpoint) : (own ?? urlFor(signal, protocol, base));
}
