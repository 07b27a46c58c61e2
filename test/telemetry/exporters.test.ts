/**
 * Which exporters the standard variables name, by NodeSDK's rules: the OTLP exporter class per
 * protocol (gRPC included, checked without a gRPC server), where each sends, and how unknown or
 * combined values are treated (reported once through diag, never thrown).
 */
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseMetricExporters, chooseSpanExporters } from '../../src/telemetry/exporters.js';

const complaints: string[] = [];
diag.setLogger({ error: (m) => void complaints.push(m), warn: (m) => void complaints.push(m), info() {}, debug() {}, verbose() {} }, DiagLogLevel.WARN);

afterEach(() => {
  vi.unstubAllEnvs();
  complaints.length = 0;
});

const summary = (chosen: { exporter: object; target: string; protocol?: string }[]) =>
  chosen.map((c) => ({ type: c.exporter.constructor, target: c.target, protocol: c.protocol }));

describe('gRPC', () => {
  it('sends to the endpoint itself, localhost:4317 by default', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc');
    const byDefault = chooseSpanExporters({});
    const byOption = chooseMetricExporters({ endpoint: 'http://collector:4317/' });
    expect(summary(byDefault)).toEqual([{ type: GrpcTraceExporter, target: 'http://localhost:4317', protocol: 'grpc' }]);
    expect(summary(byOption)).toEqual([{ type: GrpcMetricExporter, target: 'http://collector:4317', protocol: 'grpc' }]);
    await Promise.all([...byDefault, ...byOption].map((c) => c.exporter.shutdown()));
  });
});

describe('values NodeSDK would not take either', () => {
  it('an unknown protocol falls back to http/protobuf, and says so', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'carrier-pigeon');
    const chosen = chooseSpanExporters({});
    expect(summary(chosen)).toEqual([{ type: ProtobufTraceExporter, target: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf' }]);
    expect(complaints).toEqual(['footprint-otel: OTLP protocol "carrier-pigeon" is not supported (http/protobuf, http/json, grpc); using http/protobuf']);
    await chosen[0]!.exporter.shutdown();
  });

  it('an unknown exporter name is skipped and reported; a list exports to each; "none" anywhere means none', () => {
    vi.stubEnv('OTEL_TRACES_EXPORTER', 'zipkin,console');
    expect(summary(chooseSpanExporters({}))).toEqual([{ type: ConsoleSpanExporter, target: 'console', protocol: undefined }]);
    expect(complaints).toEqual(['footprint-otel: OTEL_TRACES_EXPORTER=zipkin is not supported (otlp, console, none); it is ignored']);
    vi.stubEnv('OTEL_TRACES_EXPORTER', 'console,none');
    expect(chooseSpanExporters({})).toEqual([]);
  });
});
