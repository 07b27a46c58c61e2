/**
 * The settings startTelemetry owns beside NodeSDK: where telemetry goes (files unless an exporter or
 * endpoint is named, then the standard variables decide; OTEL_SDK_DISABLED), the metric interval and
 * its timeout, the span queue size, and the resource handed to NodeSDK (a per-start instance id, the
 * code's attributes, which detectors run).
 */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envDetector } from '@opentelemetry/resources';
import { DESTINATION_VARIABLES, resolveConfig } from '../../src/telemetry/config.js';
import { EndpointError } from '../../src/telemetry/index.js';
import { resourceSetup } from '../../src/telemetry/resource.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('destination', () => {
  it('is OTLP-JSON files under ./telemetry when nothing names an exporter or an endpoint', () => {
    expect(resolveConfig({}).exportTo).toEqual({ kind: 'files', directory: path.resolve('telemetry') });
    expect(resolveConfig({ fileDirectory: '/tmp/fp' }).exportTo).toEqual({ kind: 'files', directory: '/tmp/fp' });
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
    vi.stubEnv('OTEL_SERVICE_NAME', 'still-files');
    expect(resolveConfig({}).exportTo.kind).toBe('files');
  });

  it.each(DESTINATION_VARIABLES)('leaves the choice to the standard variables once %s is set', (variable) => {
    vi.stubEnv(variable, variable.endsWith('EXPORTER') ? 'otlp' : 'http://collector:4318');
    expect(resolveConfig({ fileDirectory: '/tmp/fp' }).exportTo).toEqual({ kind: 'env' });
  });

  it('leaves the choice to the standard variables when the endpoint option is given', () => {
    expect(resolveConfig({ endpoint: 'http://code:4318' }).exportTo).toEqual({ kind: 'env' });
  });

  it.each(['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'])(
    'refuses %s without a scheme in one line, before any exporter sees it',
    (variable) => {
      vi.stubEnv(variable, '127.0.0.1:4318');
      expect(() => resolveConfig({})).toThrow(new EndpointError(`${variable} "127.0.0.1:4318" has no scheme: write http://127.0.0.1:4318 (or https://127.0.0.1:4318)`));
    },
  );

  it('refuses an endpoint option that is no HTTP URL', () => {
    expect(() => resolveConfig({ endpoint: 'grpc://collector:4317' })).toThrow(
      new EndpointError('the endpoint option "grpc://collector:4317" uses grpc:// but OTLP is exported over HTTP here: use http:// or https://'),
    );
  });

  it('is disabled by OTEL_SDK_DISABLED=true, whatever else is set', () => {
    vi.stubEnv('OTEL_SDK_DISABLED', 'true');
    expect(resolveConfig({ endpoint: 'http://code:4318' }).exportTo).toEqual({ kind: 'disabled' });
    vi.stubEnv('OTEL_SDK_DISABLED', 'false');
    expect(resolveConfig({}).exportTo.kind).toBe('files');
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
  it('is the SDK defaults, a fresh service.instance.id per start and the code\'s version and attributes', () => {
    const first = resourceSetup({ serviceName: 'shop', serviceVersion: '1.2.3', resourceAttributes: { team: 'billing' } });
    const attributes = first.resource.attributes;
    expect(Object.keys(attributes).sort()).toEqual([
      'service.instance.id',
      'service.name',
      'service.version',
      'team',
      'telemetry.sdk.language',
      'telemetry.sdk.name',
      'telemetry.sdk.version',
    ]);
    expect(attributes).toMatchObject({ 'service.version': '1.2.3', team: 'billing', 'telemetry.sdk.language': 'nodejs' });
    expect(attributes['service.instance.id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(resourceSetup({}).resource.attributes['service.instance.id']).not.toBe(attributes['service.instance.id']);
    // NodeSDK applies serviceName after the detectors, so it wins over OTEL_SERVICE_NAME
    expect(first.serviceName).toBe('shop');
  });

  it('runs the environment detector only, unless OTEL_NODE_RESOURCE_DETECTORS is set (then NodeSDK reads it)', () => {
    expect(resourceSetup({}).resourceDetectors).toEqual([envDetector]);
    vi.stubEnv('OTEL_NODE_RESOURCE_DETECTORS', 'env,host');
    expect('resourceDetectors' in resourceSetup({})).toBe(false);
  });
});
