/**
 * How startTelemetry reads its options and the standard OTEL_* variables: where telemetry goes
 * (files by default, OTLP when any endpoint is set, signal variables used as-is, code over env),
 * OTEL_SDK_DISABLED, the metric interval and its timeout, the span queue size, and the resource
 * (service name and version, OTEL_RESOURCE_ATTRIBUTES, a per-process instance id).
 */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../src/telemetry/config.js';
import { buildResource } from '../../src/telemetry/resource.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('destination', () => {
  it('is OTLP-JSON files under ./telemetry when no endpoint is configured', () => {
    expect(resolveConfig({}).destination).toEqual({ kind: 'files', directory: path.resolve('telemetry') });
    expect(resolveConfig({ fileDirectory: '/tmp/fp' }).destination).toEqual({ kind: 'files', directory: '/tmp/fp' });
  });

  it('appends the signal paths to OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://collector:4318/');
    expect(resolveConfig({}).destination).toEqual({
      kind: 'otlp',
      traces: 'http://collector:4318/v1/traces',
      metrics: 'http://collector:4318/v1/metrics',
    });
  });

  it('uses a signal endpoint as given, and the spec default for the other signal', () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', 'http://vm:8428/opentelemetry/v1/metrics');
    expect(resolveConfig({}).destination).toEqual({
      kind: 'otlp',
      traces: 'http://localhost:4318/v1/traces',
      metrics: 'http://vm:8428/opentelemetry/v1/metrics',
    });
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http://jaeger:4318/v1/traces');
    expect(resolveConfig({}).destination).toMatchObject({ traces: 'http://jaeger:4318/v1/traces' });
  });

  it('lets the endpoint option win over every endpoint variable', () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://env:4318');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http://env-traces:4318/v1/traces');
    expect(resolveConfig({ endpoint: 'http://code:4318' }).destination).toEqual({
      kind: 'otlp',
      traces: 'http://code:4318/v1/traces',
      metrics: 'http://code:4318/v1/metrics',
    });
  });

  it('is disabled by OTEL_SDK_DISABLED=true, whatever else is set', () => {
    vi.stubEnv('OTEL_SDK_DISABLED', 'true');
    expect(resolveConfig({ endpoint: 'http://code:4318' }).destination).toEqual({ kind: 'disabled' });
    vi.stubEnv('OTEL_SDK_DISABLED', 'false');
    expect(resolveConfig({}).destination.kind).toBe('files');
  });
});

describe('intervals, timeouts and queue', () => {
  it('default to the spec values', () => {
    expect(resolveConfig({})).toMatchObject({
      metricIntervalMs: 60_000,
      metricTimeoutMs: 30_000,
      exportTimeoutMs: 10_000,
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
      handleExit: true,
    });
  });

  it('read OTEL_METRIC_EXPORT_INTERVAL, OTEL_EXPORTER_OTLP_TIMEOUT and OTEL_BSP_* (options win)', () => {
    vi.stubEnv('OTEL_METRIC_EXPORT_INTERVAL', '15000');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TIMEOUT', '2500');
    vi.stubEnv('OTEL_BSP_MAX_QUEUE_SIZE', '100');
    expect(resolveConfig({})).toMatchObject({
      metricIntervalMs: 15_000,
      metricTimeoutMs: 15_000,
      exportTimeoutMs: 2500,
      maxQueueSize: 100,
      maxExportBatchSize: 100,
    });
    expect(resolveConfig({ metricExportIntervalMs: 1000, exportTimeoutMs: 700 })).toMatchObject({
      metricIntervalMs: 1000,
      metricTimeoutMs: 1000,
      exportTimeoutMs: 700,
    });
  });

  it('ignore values that are not positive numbers', () => {
    vi.stubEnv('OTEL_METRIC_EXPORT_INTERVAL', 'soon');
    vi.stubEnv('OTEL_BSP_MAX_QUEUE_SIZE', '-4');
    expect(resolveConfig({})).toMatchObject({ metricIntervalMs: 60_000, maxQueueSize: 2048 });
  });
});

describe('resource', () => {
  it('takes OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME, and the options over both', () => {
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'deployment.environment.name=staging,service.name=from-attrs,team=agents');
    expect(buildResource({}).attributes).toMatchObject({
      'service.name': 'from-attrs',
      'deployment.environment.name': 'staging',
      team: 'agents',
    });
    vi.stubEnv('OTEL_SERVICE_NAME', 'from-env');
    expect(buildResource({}).attributes['service.name']).toBe('from-env');
    const attributes = buildResource({ serviceName: 'shop', serviceVersion: '1.2.3', resourceAttributes: { team: 'billing' } }).attributes;
    expect(attributes).toMatchObject({ 'service.name': 'shop', 'service.version': '1.2.3', team: 'billing' });
  });

  it('carries the SDK identity and a fresh service.instance.id per start', () => {
    const first = buildResource({}).attributes;
    expect(first).toMatchObject({ 'telemetry.sdk.language': 'nodejs', 'telemetry.sdk.name': 'opentelemetry' });
    expect(first['service.name']).toMatch(/^unknown_service:/);
    expect(first['service.instance.id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(buildResource({}).attributes['service.instance.id']).not.toBe(first['service.instance.id']);
  });
});
