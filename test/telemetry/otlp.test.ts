/**
 * startTelemetry on NodeSDK, against a receiver on 127.0.0.1: OTLP over http/protobuf by default for
 * both signals, http/json by OTEL_EXPORTER_OTLP_PROTOCOL or per signal, the endpoint option and the
 * signal endpoint variables, OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER (none, console),
 * OTEL_PROPAGATORS, the resource detectors, OTEL_TRACES_SAMPLER(_ARG) and OTEL_SDK_DISABLED.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, registerInstrument, scripted } from '../../src/index.js';
import { metricsInstrument } from '../../src/otel/metrics/index.js';
import { startTelemetry, totalLost, type StartTelemetryOptions } from '../../src/telemetry/index.js';
import { METRICS_EXPORT, startGrpcReceiver, TRACE_EXPORT } from './grpcReceiver.js';
import { startReceiver, type Receiver } from './receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.stop());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  receiver.received.length = 0;
});

interface JsonKeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string | number };
}
interface JsonTraces {
  resourceSpans: { resource: { attributes: JsonKeyValue[] }; scopeSpans: { spans: { name: string }[] }[] }[];
}

const parse = (body: Buffer) => JSON.parse(body.toString('utf8')) as JsonTraces;

function spanNames(receiver: Receiver): string[] {
  return receiver.of('/v1/traces').flatMap((r) => parse(r.body).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name))));
}

/** Starts telemetry, records one span named `name`, and shuts down (which exports everything). */
async function oneSpan(name: string, options: StartTelemetryOptions = {}) {
  const telemetry = startTelemetry({ handleExit: false, ...options });
  trace.getTracer('otlp-test').startSpan(name).end();
  await telemetry.shutdown();
  return telemetry;
}

describe('with an endpoint', () => {
  it('sends both signals as OTLP http/protobuf (the OTel default), with the headers and the resource', async () => {
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
      expect(telemetry.destination).toEqual({
        kind: 'otlp',
        traces: `${receiver.url}/v1/traces`,
        metrics: `${receiver.url}/v1/metrics`,
        protocols: { traces: 'http/protobuf', metrics: 'http/protobuf' },
      });
      trace.getTracer('otlp-test').startSpan('hello').end();
      await Agent.create({ provider: scripted({ replies: ['hi'] }), model: 'm-small', id: 'greeter' }).build().run('hello');
      await telemetry.forceFlush();
    } finally {
      await telemetry.shutdown();
      unregister();
    }
    expect(telemetry.health().spans.lost).toEqual({});
    expect(telemetry.health().metricPoints.lost).toEqual({});
    const traces = receiver.of('/v1/traces');
    const metrics = receiver.of('/v1/metrics');
    for (const request of [...traces, ...metrics]) {
      expect(request.headers).toMatchObject({ 'content-type': 'application/x-protobuf', authorization: 'Bearer t0ken', 'x-team': 'agents' });
    }
    // protobuf carries strings as raw UTF-8: span names, instrument names and resource values are in the bodies
    const traceBytes = Buffer.concat(traces.map((t) => t.body)).toString('latin1');
    for (const text of ['hello', 'invoke_agent greeter', 'otlp-test', '9.9.9']) expect(traceBytes).toContain(text);
    const metricBytes = Buffer.concat(metrics.map((m) => m.body)).toString('latin1');
    for (const text of ['footprint.runs', 'gen_ai.client.inference.usage.input_tokens', 'otel.sdk.exporter.span.exported', 'otel.sdk.processor.span.processed', 'otlp-test']) {
      expect(metricBytes).toContain(text);
    }
  });

  it('sends the headers option over gRPC too, as request metadata merged over OTEL_EXPORTER_OTLP_HEADERS', async () => {
    const grpc = await startGrpcReceiver();
    try {
      vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc');
      vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-team=agents,authorization=Bearer from-env');
      const telemetry = await oneSpan('over-grpc', { endpoint: grpc.url, headers: { authorization: 'Bearer t0ken' } });
      expect(telemetry.destination).toEqual({ kind: 'otlp', traces: grpc.url, metrics: grpc.url, protocols: { traces: 'grpc', metrics: 'grpc' } });
      expect(totalLost(telemetry.health().spans) + totalLost(telemetry.health().metricPoints)).toBe(0);
      expect(grpc.received.map((r) => [r.path, r.metadata['authorization'], r.metadata['x-team']])).toEqual([
        [TRACE_EXPORT, 'Bearer t0ken', 'agents'],
        [METRICS_EXPORT, 'Bearer t0ken', 'agents'],
      ]);
    } finally {
      await grpc.stop();
    }
  });

  it('sends OTLP JSON when OTEL_EXPORTER_OTLP_PROTOCOL=http/json, and per signal by its own protocol variable', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
    const json = await oneSpan('as-json', { endpoint: receiver.url, serviceName: 'json-test' });
    expect(json.destination).toEqual({
      kind: 'otlp',
      traces: `${receiver.url}/v1/traces`,
      metrics: `${receiver.url}/v1/metrics`,
      protocols: { traces: 'http/json', metrics: 'http/json' },
    });
    expect(receiver.received.map((r) => [r.path, r.headers['content-type']])).toEqual([
      ['/v1/traces', 'application/json'],
      ['/v1/metrics', 'application/json'],
    ]);
    expect(spanNames(receiver)).toEqual(['as-json']);
    receiver.received.length = 0;

    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/protobuf');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'http/json');
    await oneSpan('mixed', { endpoint: receiver.url });
    expect(receiver.received.map((r) => [r.path, r.headers['content-type']])).toEqual([
      ['/v1/traces', 'application/json'],
      ['/v1/metrics', 'application/x-protobuf'],
    ]);
  });

  it('honours the signal endpoint variables as full URLs', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `${receiver.url}/custom/traces`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', `${receiver.url}/custom/metrics`);
    const telemetry = await oneSpan('routed');
    expect(telemetry.destination).toEqual({
      kind: 'otlp',
      traces: `${receiver.url}/custom/traces`,
      metrics: `${receiver.url}/custom/metrics`,
      protocols: { traces: 'http/protobuf', metrics: 'http/protobuf' },
    });
    expect(receiver.received.map((r) => r.path)).toEqual(['/custom/traces', '/custom/metrics']);
    expect(totalLost(telemetry.health().spans) + totalLost(telemetry.health().metricPoints)).toBe(0);
  });
});

describe('OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER', () => {
  it('none turns a signal off', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_TRACES_EXPORTER', 'none');
    const noTraces = await oneSpan('unseen');
    expect(noTraces.destination).toEqual({ kind: 'otlp', traces: 'none', metrics: `${receiver.url}/v1/metrics`, protocols: { metrics: 'http/protobuf' } });
    expect(receiver.received.map((r) => r.path)).toEqual(['/v1/metrics']);
    receiver.received.length = 0;

    vi.stubEnv('OTEL_TRACES_EXPORTER', 'otlp');
    vi.stubEnv('OTEL_METRICS_EXPORTER', 'none');
    await oneSpan('seen');
    expect(receiver.received.map((r) => r.path)).toEqual(['/v1/traces']);
  });

  it('console prints spans instead of writing files, and is a destination by itself', async () => {
    vi.stubEnv('OTEL_TRACES_EXPORTER', 'console');
    vi.stubEnv('OTEL_METRICS_EXPORTER', 'none');
    const printed: unknown[] = [];
    vi.spyOn(console, 'dir').mockImplementation((item) => void printed.push(item));
    const telemetry = await oneSpan('to-console');
    expect(telemetry.destination).toEqual({ kind: 'otlp', traces: 'console', metrics: 'none', protocols: {} });
    expect(printed).toEqual([expect.objectContaining({ name: 'to-console' })]);
    expect(receiver.received).toEqual([]);
  });
});

describe('what NodeSDK reads', () => {
  const injected = (): Record<string, string> => {
    const carrier: Record<string, string> = {};
    const span = trace.getTracer('p').startSpan('outgoing');
    propagation.inject(trace.setSpan(context.active(), span), carrier);
    span.end();
    return carrier;
  };

  it('OTEL_PROPAGATORS: W3C trace context by default, B3 when asked', async () => {
    const w3c = startTelemetry({ endpoint: receiver.url, handleExit: false });
    expect(Object.keys(injected())).toEqual(['traceparent']);
    await w3c.shutdown();
    vi.stubEnv('OTEL_PROPAGATORS', 'b3');
    const b3 = startTelemetry({ endpoint: receiver.url, handleExit: false });
    expect(Object.keys(injected())).toEqual(['b3']);
    await b3.shutdown();
  });

  it('resource detectors: the environment only by default, OTEL_NODE_RESOURCE_DETECTORS when set', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'http/json');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'deployment.environment.name=staging,service.version=2.0.0');
    vi.stubEnv('OTEL_METRICS_EXPORTER', 'none');
    const keysOf = () => parse(receiver.of('/v1/traces')[0]!.body).resourceSpans[0]!.resource.attributes.map((a) => a.key).sort();
    const valueOf = (key: string) => parse(receiver.of('/v1/traces')[0]!.body).resourceSpans[0]!.resource.attributes.find((a) => a.key === key)?.value;

    await oneSpan('plain', { endpoint: receiver.url, serviceName: 'code-name', serviceVersion: '1.0.0' });
    expect(keysOf()).toEqual([
      'deployment.environment.name',
      'service.instance.id',
      'service.name',
      'service.version',
      'telemetry.sdk.language',
      'telemetry.sdk.name',
      'telemetry.sdk.version',
    ]);
    // detected (environment) attributes win over the code's, the serviceName option over both
    expect([valueOf('service.name'), valueOf('service.version')]).toEqual([{ stringValue: 'code-name' }, { stringValue: '2.0.0' }]);
    receiver.received.length = 0;

    vi.stubEnv('OTEL_NODE_RESOURCE_DETECTORS', 'env,process');
    await oneSpan('with-process', { endpoint: receiver.url });
    expect(valueOf('process.pid')).toEqual({ intValue: process.pid });
  });
});

describe('OTEL_TRACES_SAMPLER', () => {
  const runWith = async (sampler: string, arg?: string): Promise<string[]> => {
    vi.stubEnv('OTEL_TRACES_SAMPLER', sampler);
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'http/json');
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
