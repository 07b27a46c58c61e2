/**
 * The span and metric exporters the standard variables name, built here rather than inside NodeSDK
 * because NodeSDK keeps the processors it builds to itself, and every export must pass through our
 * guard (bounded, counted) and our counting span queue. The choice follows NodeSDK's own rules:
 * OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER (otlp, console, none; a comma list; default otlp;
 * "none" anywhere in the list turns the signal off, as NodeSDK does for metrics) and
 * OTEL_EXPORTER_OTLP_{TRACES,METRICS}_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf by
 * default, http/json, grpc). Where NodeSDK warns and exports nothing (an unknown exporter or
 * protocol, a header list the exporters would drop), checkExporterSettings() refuses the value in
 * one line before anything starts: telemetry silently going nowhere is the worse failure. Endpoint, headers, timeout, compression and temporality variables are
 * read by the OTLP exporters themselves; the endpoint/headers/timeout options override them. The
 * OTLP exporters are built in otlpExporters.ts, so that a collector's partial success is counted.
 */
import { getStringFromEnv, getStringListFromEnv } from '@opentelemetry/core';
import { ConsoleMetricExporter, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { ConsoleSpanExporter, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { TelemetryConfigError } from './errors.js';
import { grpcMetricExporter, grpcSpanExporter, httpMetricExporter, httpSpanExporter } from './otlpExporters.js';

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
  'http/protobuf': (config) => httpSpanExporter('protobuf', config),
  'http/json': (config) => httpSpanExporter('json', config),
  grpc: (config) => grpcSpanExporter(config),
};

const METRIC_EXPORTERS: Builders<PushMetricExporter> = {
  console: () => new ConsoleMetricExporter(),
  'http/protobuf': (config) => httpMetricExporter('protobuf', config),
  'http/json': (config) => httpMetricExporter('json', config),
  grpc: (config) => grpcMetricExporter(config),
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

/**
 * Refuses, in one TelemetryConfigError, an exporter name, an OTLP protocol or an OTLP header list no
 * exporter can use, for either signal.
 */
export function checkExporterSettings(): void {
  for (const signal of ['traces', 'metrics'] as const) {
    exporterNames(signal);
    protocolOf(signal);
  }
  for (const variable of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', 'OTEL_EXPORTER_OTLP_METRICS_HEADERS']) {
    checkHeaderList(variable);
  }
}

/** OTEL_{SIGNAL}_EXPORTER as a list of known names; "none" anywhere means none. */
function exporterNames(signal: Signal): ExporterName[] {
  const variable = `OTEL_${signal.toUpperCase()}_EXPORTER`;
  const listed = [...new Set(getStringListFromEnv(variable) ?? [])];
  const unknown = listed.find((name) => name !== 'none' && !(EXPORTER_NAMES as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw new TelemetryConfigError(
      `${variable}="${getStringFromEnv(variable)}": "${unknown}" is not an exporter; use otlp, console or none (or a comma list of otlp and console)`,
    );
  }
  if (listed.includes('none')) return [];
  if (listed.length === 0) return ['otlp'];
  return listed as ExporterName[];
}

function protocolOf(signal: Signal): OtlpProtocol {
  const own = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`;
  const variable = getStringFromEnv(own) !== undefined ? own : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = getStringFromEnv(variable)?.trim() || 'http/protobuf';
  if ((PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
  throw new TelemetryConfigError(`${variable}="${value}" is not an OTLP protocol; use ${PROTOCOLS.slice(0, -1).join(', ')} or ${PROTOCOLS.at(-1)}`);
}

/**
 * The W3C-baggage-style list the OTLP exporters parse (key=value, comma-separated), which they drop
 * entry by entry when malformed. Never quotes a value: headers carry credentials.
 */
function checkHeaderList(variable: string): void {
  const entries = (getStringFromEnv(variable) ?? '').split(',').map((entry) => entry.trim());
  const count = entries.filter((entry) => entry !== '').length;
  let position = 0;
  for (const entry of entries) {
    if (entry === '') continue;
    position++;
    const equals = entry.indexOf('=');
    const problem = equals < 0 ? 'has no "="' : equals === 0 ? 'has no name before "="' : undefined;
    if (problem !== undefined) {
      throw new TelemetryConfigError(
        `${variable} is not a header list: entry ${position} of ${count} ${problem}; write key=value pairs separated by commas, e.g. api-key=<secret>,x-team=agents`,
      );
    }
  }
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
    // over gRPC, sent as request metadata (otlpExporters.ts)
    ...(overrides.headers === undefined ? {} : { headers: overrides.headers }),
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
