// Scale-out, for real: the gateway tier (deploy/otel-collector/gateway.yaml, compose --profile
// gateway) in front of two tail-sampling collectors (config.yaml twice), three collector processes
// in all. Routing by trace id must hand each trace whole to one sampler: every span the demo sent is
// accepted by exactly one sampler, both samplers get traffic, every tripped trace reaches Jaeger
// whole, and no trace in Jaeger is partial (a split trace would be decided twice, in pieces).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackends, waitFor } from '../support/backends.js';
import { runDemo, type DemoRun, type JaegerTrace } from '../support/stack/clients.js';
import { startOtlpTap, TAP_PROTOCOL_ENV, type OtlpTap, type TappedTrace } from '../support/stack/otlp-tap.js';
import { startStack, type RunningStack } from '../support/stack/start-stack.js';
import { hostAddress } from '../support/stack/stack.js';
import { durationSeconds, loadYaml, PATHS } from './stack-files.js';

const SERVICE = 'footprint-stack-gateway';
const DECISION_WAIT_MS = durationSeconds(loadYaml(PATHS.collector).processors.tail_sampling.decision_wait) * 1000;

/** A collector's own counter from its Prometheus endpoint (:8888 in the shipped configs), summed. */
async function collectorCounter(stack: RunningStack, service: 'otel-collector' | 'otel-collector-2', name: string): Promise<number> {
  const text = await (await fetch(`http://${hostAddress(stack.ports, service, 8888)}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describeWithBackends('the gateway topology: load_balancing by trace id over two tail samplers', ['otelcol', 'jaeger', 'prometheus', 'alertmanager'], (bins) => {
  let stack: RunningStack;
  let tap: OtlpTap;
  let load: DemoRun;
  let sent: TappedTrace[];
  let kept: Map<string, JaegerTrace>;

  beforeAll(async () => {
    stack = await startStack({ bins: { otelcol: bins.otelcol, jaeger: bins.jaeger, prometheus: bins.prometheus, alertmanager: bins.alertmanager }, gateway: true });
    tap = await startOtlpTap(() => stack.otlpUrl);
    load = await runDemo({
      args: ['--runs', '200', '--concurrency', '8', '--seed', '9'],
      env: { ...TAP_PROTOCOL_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: tap.url, OTEL_SERVICE_NAME: SERVICE, OTEL_METRIC_EXPORT_INTERVAL: '1000' },
    });
    sent = [...tap.traces().values()].filter((t) => t.serviceName === SERVICE);
    await new Promise((r) => setTimeout(r, Math.max(0, tap.lastTraceAt() + DECISION_WAIT_MS + 5_000 - Date.now())));
    const tripped = sent.filter((t) => t.spans.some((s) => s.attributes['footprint.trip.kinds'] !== undefined)).map((t) => t.traceId);
    kept = await waitFor(
      async () => {
        const found = new Map((await stack.jaeger.search(SERVICE)).map((t) => [t.traceID, t]));
        return tripped.every((id) => found.has(id)) ? found : undefined;
      },
      { what: 'every tripped trace in Jaeger', timeoutMs: 60_000, intervalMs: 2_000 },
    );
  }, 300_000);

  afterAll(async () => {
    await tap?.close();
    await stack?.stop();
  });

  it('routes every span to exactly one sampler, and both samplers get traffic', async () => {
    expect(load.exitCode).toBe(0);
    const spansSent = sent.reduce((n, t) => n + t.spans.length, 0);
    const accepted = await Promise.all(
      (['otel-collector', 'otel-collector-2'] as const).map((s) => collectorCounter(stack, s, 'otelcol_receiver_accepted_spans')),
    );
    expect(accepted.every((n) => n > 0)).toBe(true);
    expect(accepted[0]! + accepted[1]!).toBe(spansSent);
  });

  it('brings every tripped trace to Jaeger whole, and no trace in pieces', () => {
    const sentById = new Map(sent.map((t) => [t.traceId, t]));
    const tripped = sent.filter((t) => t.spans.some((s) => s.attributes['footprint.trip.kinds'] !== undefined));
    expect(tripped.length).toBe(load.summary.trips.ping_pong! + load.summary.trips.rejected_cap!);
    const partial = [...kept.values()].filter((t) => t.spans.length !== sentById.get(t.traceID)?.spans.length).map((t) => t.traceID);
    expect(partial).toEqual([]);
    expect(tripped.filter((t) => !kept.has(t.traceId)).map((t) => t.traceId)).toEqual([]);
  });
});
