/**
 * End to end against a real Prometheus 3 on 127.0.0.1 (its OTLP receiver, the shipped OTLP settings):
 * scripted runs exported by startTelemetry are queryable with the PromQL the dashboards use — cost by
 * route, trips by kind (the series exists at 0 before the first trip), p95 model-call duration by
 * model — and every series name Prometheus stores is one the metric catalog declares.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  Agent,
  Conditional,
  defineSkill,
  registerInstrument,
  scripted,
  skillGraph,
  type ScriptedReply,
} from '../../../src/index.js';
import { METRIC_CATALOG, metricsInstrument, prometheusSeries } from '../../../src/otel/metrics/index.js';
import { startTelemetry, type TelemetryHandle } from '../../../src/telemetry/index.js';
import { TELEMETRY_SELF_METRIC_NAMES } from '../../stack/exported-metric-names.js';
import { describeWithBackends, startPrometheus, waitFor, type Prometheus } from '../../support/backends.js';
import { startReceiver, type Receiver } from '../../telemetry/receiver.js';

const SERVICE = 'vm-e2e';
const PRICING = { 'fast-1': { input: 1, output: 2 }, 'slow-1': { input: 10, output: 20 } };
const usage = { input: 1000, output: 100 };
const sel = `service_name="${SERVICE}"`;

describeWithBackends('metrics in Prometheus 3 over OTLP', ['prometheus'], (bins) => {
  let vm: Prometheus;
  let traces: Receiver;
  let telemetry: TelemetryHandle;
  let unregister: () => void;

  /** Polls an instant query until `accept` holds for its result (an export lands asynchronously). */
  const settled = (expr: string, accept: (result: Record<string, number>) => boolean, by: string) =>
    waitFor(
      async () => {
        const samples = await vm.query(expr);
        const result = Object.fromEntries(samples.map((s) => [s.metric[by] ?? '', Number(s.value[1])]));
        return accept(result) ? result : undefined;
      },
      { timeoutMs: 20_000, what: expr },
    );

  beforeAll(async () => {
    vm = await startPrometheus({}, bins.prometheus);
    traces = await startReceiver();
    vi.stubEnv('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', vm.otlpMetricsUrl);
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `${traces.url}/v1/traces`);
    unregister = registerInstrument(metricsInstrument());
    telemetry = startTelemetry({ serviceName: SERVICE, metricExportIntervalMs: 600_000, handleExit: false });
  });
  afterAll(async () => {
    await telemetry?.shutdown();
    unregister?.();
    vi.unstubAllEnvs();
    await traces?.stop();
    await vm?.stop();
  });

  it('answers cost by route, trips by kind and p95 duration by model', async () => {
    const triage = defineSkill({ id: 'triage', description: 'Sort', body: 'Sort it.' });
    const diagnose = defineSkill({ id: 'diagnose', description: 'Find', body: 'Find it.' });
    const pick = (id: string): ScriptedReply => ({ toolCalls: [{ name: 'read_skill', args: { id } }], usage, delayMs: 100 });
    const fast = (content: string) => scripted({ name: 'fast', replies: [{ content, usage }] });
    const desk = Agent.create({
      provider: scripted({ name: 'slow', replies: [pick('diagnose'), pick('triage'), pick('diagnose'), pick('triage'), pick('diagnose'), { content: 'done', usage, delayMs: 100 }] }),
      model: 'slow-1',
      id: 'desk',
      pricing: PRICING,
    })
      .skillGraph(skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, triage).build(), { pingPongWindow: 4 })
      .build();
    const front = Conditional.create({ id: 'front' })
      .when('refunds', ({ message }) => /refund/i.test(message), Agent.create({ provider: fast('refunded'), model: 'fast-1', id: 'refunds', pricing: PRICING }).build())
      .otherwise('general', Agent.create({ provider: fast('hello'), model: 'fast-1', id: 'general', pricing: PRICING }).build())
      .build();

    // a first export before anything trips: the trip series are born at 0
    await front.run('refund please');
    await front.run('hi');
    const warmup = Agent.create({ provider: fast('ok'), model: 'fast-1', id: 'desk', pricing: PRICING })
      .skillGraph(skillGraph().entry(triage).build())
      .build();
    await warmup.run('nothing to do');
    await telemetry.forceFlush();
    expect(
      await settled(`sum by (footprint_trip_kind) (footprint_loop_guard_trips_total{${sel},footprint_agent="desk"})`, (r) => 'ping_pong' in r, 'footprint_trip_kind'),
    ).toEqual({ ping_pong: 0, rejected_cap: 0 });

    await desk.run('the link flaps');
    await telemetry.forceFlush();

    const trips = await settled(`sum by (footprint_trip_kind) (footprint_loop_guard_trips_total{${sel}})`, (r) => r.ping_pong === 1, 'footprint_trip_kind');
    expect(trips).toEqual({ ping_pong: 1, rejected_cap: 0 });

    const fastCall = (1000 * 1 + 100 * 2) / 1_000_000;
    const cost = await settled(`sum by (footprint_route) (footprint_llm_cost_usd_total{${sel}})`, (r) => 'front>general' in r && r[''] !== undefined && r[''] > 0.05, 'footprint_route');
    expect(cost['front>refunds']).toBeCloseTo(fastCall, 12);
    expect(cost['front>general']).toBeCloseTo(fastCall, 12);
    // the desk (no routing above it): one warm-up call on fast-1 and six on slow-1
    expect(cost['']).toBeCloseTo(fastCall + (6 * (1000 * 10 + 100 * 20)) / 1_000_000, 12);

    const p95 = await settled(
      `histogram_quantile(0.95, sum by (le, gen_ai_request_model) (gen_ai_client_inference_duration_seconds_bucket{${sel}}))`,
      (r) => 'slow-1' in r && 'fast-1' in r,
      'gen_ai_request_model',
    );
    // Lower bounds only: each slow call waits 100 ms by construction, a fast one nothing; how much longer
    // either takes is the machine's load (an upper bound here failed at load 9), not the telemetry's.
    expect(p95['slow-1']).toBeGreaterThan(0.08);
    expect(p95['fast-1']).toBeLessThan(p95['slow-1']!);
  }, 60_000);

  it('stores only series names the catalog declares', async () => {
    // the catalog's instruments, plus startTelemetry's own health in the SDK's otel.sdk.* instruments
    const declared = new Set([...METRIC_CATALOG.flatMap((spec) => prometheusSeries(spec)), ...TELEMETRY_SELF_METRIC_NAMES]);
    // target_info is Prometheus's own series for the OTLP resource, not an instrument.
    const stored = (await vm.metricNames(`{${sel}}`)).filter((name) => name !== 'target_info');
    expect(stored.length).toBeGreaterThan(10);
    expect(stored.filter((name) => !declared.has(name))).toEqual([]);
  });
});
