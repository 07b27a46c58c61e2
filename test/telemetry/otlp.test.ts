/**
 * The OTLP/HTTP path against a receiver on 127.0.0.1: traces arrive as OTLP JSON at /v1/traces,
 * metrics as protobuf at /v1/metrics, both with the configured and OTEL_EXPORTER_OTLP_HEADERS
 * headers and the service's resource; OTEL_TRACES_SAMPLER(_ARG) decides which traces are kept.
 */
import { trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, registerInstrument, scripted } from '../../src/index.js';
import { metricsInstrument } from '../../src/otel/metrics/index.js';
import { startTelemetry, totalLost } from '../../src/telemetry/index.js';
import { startReceiver, type Receiver } from './receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.stop());
afterEach(() => {
  vi.unstubAllEnvs();
  receiver.received.length = 0;
});

interface JsonTraces {
  resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: { name: string }[] }[] }[];
}

function spanNames(receiver: Receiver): string[] {
  return receiver.of('/v1/traces').flatMap((r) =>
    (JSON.parse(r.body.toString('utf8')) as JsonTraces).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name))),
  );
}

describe('with an endpoint', () => {
  it('sends traces as OTLP JSON and metrics as OTLP protobuf, with the headers and the resource', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-team=agents');
    const unregister = registerInstrument(metricsInstrument());
    const telemetry = startTelemetry({
      endpoint: receiver.url,
      headers: { authorization: 'Bearer t0ken' },
      serviceName: 'otlp-test',
      serviceVersion: '9.9.9',
      handleExit: false,
    });
    try {
      expect(telemetry.destination).toEqual({ kind: 'otlp', traces: `${receiver.url}/v1/traces`, metrics: `${receiver.url}/v1/metrics` });
      trace.getTracer('otlp-test').startSpan('hello').end();
      await Agent.create({ provider: scripted({ replies: ['hi'] }), model: 'm-small', id: 'greeter' }).build().run('hello');
      await telemetry.forceFlush();
    } finally {
      await telemetry.shutdown();
      unregister();
    }
    expect(telemetry.health().spans.lost).toEqual({});
    expect(telemetry.health().metricPoints.lost).toEqual({});

    const [traces] = receiver.of('/v1/traces');
    expect(traces!.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer t0ken', 'x-team': 'agents' });
    const body = JSON.parse(traces!.body.toString('utf8')) as JsonTraces;
    expect(body.resourceSpans[0]!.resource.attributes).toEqual(
      expect.arrayContaining([
        { key: 'service.name', value: { stringValue: 'otlp-test' } },
        { key: 'service.version', value: { stringValue: '9.9.9' } },
      ]),
    );
    expect(spanNames(receiver)).toContain('hello');

    const metrics = receiver.of('/v1/metrics');
    expect(metrics.length).toBeGreaterThan(0);
    expect(metrics[0]!.headers).toMatchObject({ 'content-type': 'application/x-protobuf', authorization: 'Bearer t0ken', 'x-team': 'agents' });
    // protobuf carries strings as raw UTF-8: the instrument names and the service name are in the body
    const bytes = Buffer.concat(metrics.map((m) => m.body)).toString('latin1');
    for (const text of ['footprint.runs', 'gen_ai.client.token.usage', 'otel.sdk.exporter.span.exported', 'otel.sdk.processor.span.processed', 'otlp-test']) {
      expect(bytes).toContain(text);
    }
  });

  it('honours the signal endpoint variables as full URLs', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `${receiver.url}/custom/traces`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', `${receiver.url}/custom/metrics`);
    const telemetry = startTelemetry({ handleExit: false });
    trace.getTracer('t').startSpan('routed').end();
    await telemetry.shutdown();
    expect(receiver.of('/custom/traces')).toHaveLength(1);
    expect(receiver.of('/custom/metrics')).toHaveLength(1);
    expect(totalLost(telemetry.health().spans) + totalLost(telemetry.health().metricPoints)).toBe(0);
  });
});

describe('OTEL_TRACES_SAMPLER', () => {
  const runWith = async (sampler: string, arg?: string): Promise<string[]> => {
    vi.stubEnv('OTEL_TRACES_SAMPLER', sampler);
    if (arg !== undefined) vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', arg);
    const telemetry = startTelemetry({ endpoint: receiver.url, handleExit: false });
    for (let i = 0; i < 20; i++) trace.getTracer('s').startSpan(`span-${i}`).end();
    await telemetry.shutdown();
    const names = spanNames(receiver);
    receiver.received.length = 0;
    return names;
  };

  it('drops every trace with always_off and with a ratio of 0, keeps every one with a ratio of 1', async () => {
    expect(await runWith('always_off')).toEqual([]);
    expect(await runWith('traceidratio', '0')).toEqual([]);
    expect(await runWith('parentbased_traceidratio', '1')).toHaveLength(20);
  });
});

describe('OTEL_SDK_DISABLED=true', () => {
  it('starts nothing, registers nothing and returns no-op handles', async () => {
    vi.stubEnv('OTEL_SDK_DISABLED', 'true');
    const telemetry = startTelemetry({ endpoint: receiver.url, handleExit: false });
    expect(telemetry.destination).toEqual({ kind: 'disabled' });
    expect(trace.getTracer('d').startSpan('nothing').isRecording()).toBe(false);
    await telemetry.forceFlush();
    await telemetry.shutdown();
    expect(receiver.received).toEqual([]);
    expect(startTelemetry({ endpoint: receiver.url, handleExit: false })).not.toBe(telemetry);
  });
});
