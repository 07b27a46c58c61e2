/**
 * Which exporters the standard variables name, by NodeSDK's rules: the OTLP exporter per protocol
 * (gRPC included, checked without a gRPC server; each protocol's wire format is test/telemetry/otlp.test.ts's
 * and partialSuccess.test.ts's), where each sends, and how unknown or
 * combined values are treated: a value no exporter can use is refused in one line, before anything starts.
 */
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../src/telemetry/config.js';
import { chooseMetricExporters, chooseSpanExporters } from '../../src/telemetry/exporters.js';
import { TelemetryConfigError } from '../../src/telemetry/index.js';

const complaints: string[] = [];
diag.setLogger({ error: (m) => void complaints.push(m), warn: (m) => void complaints.push(m), info() {}, debug() {}, verbose() {} }, DiagLogLevel.WARN);

afterEach(() => {
  vi.unstubAllEnvs();
  complaints.length = 0;
});

const summary = (chosen: { exporter: object; target: string; protocol?: string }[]) =>
  chosen.map((c) => ({ console: c.exporter instanceof ConsoleSpanExporter, target: c.target, protocol: c.protocol }));

describe('gRPC', () => {
  it('sends to the endpoint itself, localhost:4317 by default', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc');
    const byDefault = chooseSpanExporters({});
    const byOption = chooseMetricExporters({ endpoint: 'http://collector:4317/' });
    expect(summary(byDefault)).toEqual([{ console: false, target: 'http://localhost:4317', protocol: 'grpc' }]);
    expect(summary(byOption)).toEqual([{ console: false, target: 'http://collector:4317', protocol: 'grpc' }]);
    await Promise.all([...byDefault, ...byOption].map((c) => c.exporter.shutdown()));
  });
});

describe('values no exporter can use: one TelemetryConfigError naming the variable and the values it takes', () => {
  const refusal = (variables: Record<string, string>) => {
    for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
    try {
      resolveConfig({});
    } catch (error) {
      expect(error).toBeInstanceOf(TelemetryConfigError);
      return (error as Error).message;
    }
    throw new Error(`${JSON.stringify(variables)} was accepted`);
  };

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'bogus' }, 'OTEL_TRACES_EXPORTER="bogus": "bogus" is not an exporter; use otlp, console or none (or a comma list of otlp and console)'],
    [{ OTEL_METRICS_EXPORTER: 'console,prometheus' }, 'OTEL_METRICS_EXPORTER="console,prometheus": "prometheus" is not an exporter; use otlp, console or none (or a comma list of otlp and console)'],
    [{ OTEL_TRACES_EXPORTER: 'zipkin,none' }, 'OTEL_TRACES_EXPORTER="zipkin,none": "zipkin" is not an exporter; use otlp, console or none (or a comma list of otlp and console)'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/xml' }, 'OTEL_EXPORTER_OTLP_PROTOCOL="http/xml" is not an OTLP protocol; use http/protobuf, http/json or grpc'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'carrier-pigeon' }, 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL="carrier-pigeon" is not an OTLP protocol; use http/protobuf, http/json or grpc'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_HEADERS: 'a' }, 'OTEL_EXPORTER_OTLP_HEADERS is not a header list: entry 1 of 1 has no "="; write key=value pairs separated by commas, e.g. api-key=<secret>,x-team=agents'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=agents,=secret' }, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS is not a header list: entry 2 of 2 has no name before "="; write key=value pairs separated by commas, e.g. api-key=<secret>,x-team=agents'],
  ])('%j', (variables, message) => {
    expect(refusal(variables)).toBe(message);
  });

  it('never echoes a header value (it may be a secret)', () => {
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'Bearer s3cr3t' })).not.toContain('s3cr3t');
  });

  it('takes what the exporters take: a list, spaces, "none" anywhere, a trailing comma, values with "="', () => {
    vi.stubEnv('OTEL_TRACES_EXPORTER', ' console , otlp ');
    vi.stubEnv('OTEL_METRICS_EXPORTER', 'console,none');
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-team=agents, authorization=Basic YTpi==,');
    expect(resolveConfig({}).exportTo).toEqual({ kind: 'env' });
    expect(chooseMetricExporters({})).toEqual([]);
    expect(complaints).toEqual([]);
  });
});
