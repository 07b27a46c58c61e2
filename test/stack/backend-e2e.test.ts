// End to end without Docker: the real OTel JS SDK (MeterProvider + PeriodicExportingMetricReader +
// OTLP/HTTP protobuf exporter) exports a synthetic run of every contract instrument to Prometheus 3's
// OTLP receiver (the shipped OTLP settings), PromQL reads them back under the contract names; the
// same Prometheus evaluates the SHIPPED rule file on that data and notifies an Alertmanager running
// the SHIPPED routing tree, whose webhook must receive the ping-pong and rejected-cap alerts of the
// tripping service, and nothing for the clean service. (test/stack/real-stack.test.ts does the same
// through the collector with the demo; this one pins exact values on a hand-made run.) Then the
// demo itself sends its metrics straight to the same Prometheus: `demo --runaway` fires
// FootprintRunawayAgent for its billing agent only, ticketed; the same load without the flag does not.
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ExportResult } from '@opentelemetry/core';
import YAML from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithBackends,
  startAlertmanager,
  startPrometheus,
  startWebhookReceiver,
  stopAll,
  waitFor,
  type Backend,
  type PromSample,
  type Prometheus,
  type WebhookReceiver,
} from '../support/backends.js';
import { METRICS } from '../../src/otel/metrics/index.js';
import { runDemo } from '../support/stack/clients.js';
import { SDK_METRIC_NAMES } from './exported-metric-names.js';
import { loadYaml, PATHS, type Json } from './stack-files.js';

const TRIPPING = 'footprint-e2e-tripping';
const CLEAN = 'footprint-e2e-clean';

// Semantic-convention bucket advice for the gen_ai duration histograms.
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/** Delegating exporter that records every export result (the OTLP exporter does not surface errors). */
class CheckedExporter implements PushMetricExporter {
  readonly results: ExportResult[] = [];
  readonly selectAggregationTemporality: PushMetricExporter['selectAggregationTemporality'];
  readonly selectAggregation: PushMetricExporter['selectAggregation'];
  private readonly inner: OTLPMetricExporter;
  constructor(inner: OTLPMetricExporter) {
    this.inner = inner;
    this.selectAggregationTemporality = inner.selectAggregationTemporality?.bind(inner);
    this.selectAggregation = inner.selectAggregation?.bind(inner);
  }
  export(metrics: ResourceMetrics, done: (r: ExportResult) => void): void {
    this.inner.export(metrics, (r) => {
      this.results.push(r);
      done(r);
    });
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** One service's MeterProvider with the contract instruments (names, kinds and units as the bridge's). */
function contractMeter(service: string, url: string) {
  const exporter = new CheckedExporter(new OTLPMetricExporter({ url }));
  // Long interval: the test exports deterministically with forceFlush().
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 600_000, exportTimeoutMillis: 10_000 });
  const provider = new MeterProvider({ resource: resourceFromAttributes({ 'service.name': service }), readers: [reader] });
  const m = provider.getMeter('footprint-otel', '0.1.0');
  // The development channel's metrics, on their own scope as the bridge records them.
  const dev = provider.getMeter('footprint-otel', '0.1.0', { schemaUrl: METRICS.invocationDuration.schemaUrl });
  const devHistogram = (spec: { name: string; unit: string; buckets: readonly number[] }) =>
    dev.createHistogram(spec.name, { unit: spec.unit, advice: { explicitBucketBoundaries: [...spec.buckets] } });
  return {
    invocationDuration: devHistogram(METRICS.invocationDuration),
    inferenceCalls: devHistogram(METRICS.invokeAgentInferenceCalls),
    toolCalls: devHistogram(METRICS.invokeAgentToolCalls),
    toolDuration: devHistogram(METRICS.executeToolDuration),
    provider,
    exporter,
    // The current conventions' token counters (the bridge's default mode), on the development channel's scope.
    inputTokens: dev.createCounter(METRICS.inferenceInputTokens.name, { unit: '{token}' }),
    outputTokens: dev.createCounter(METRICS.inferenceOutputTokens.name, { unit: '{token}' }),
    // The current conventions' model-call duration (the bridge's default mode), on the development channel's scope.
    duration: devHistogram(METRICS.inferenceDuration),
    cost: m.createCounter('footprint.llm.cost.usd', { unit: '{USD}' }),
    decisions: m.createCounter('footprint.route.decisions', { unit: '{decision}' }),
    trips: m.createCounter(METRICS.loopGuardTrips.name, { unit: '{trip}' }),
    escalations: m.createCounter('footprint.skill.escalations', { unit: '{escalation}' }),
    fallbacks: m.createCounter(METRICS.llmFallbacks.name, { unit: METRICS.llmFallbacks.unit }),
    rejections: m.createCounter('footprint.skill.rejections', { unit: '{rejection}' }),
    runs: m.createCounter('footprint.runs', { unit: '{run}' }),
    runDuration: m.createHistogram('footprint.run.duration', { unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } }),
  };
}
type ContractMeter = ReturnType<typeof contractMeter>;

function llmCall(s: ContractMeter, o: { model: string; route: string; skill: string; seconds: number; input: number; output: number; usd: number; error?: string }) {
  const common = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'scripted',
    'gen_ai.request.model': o.model,
    'footprint.agent': 'desk',
    'footprint.skill': o.skill,
    'footprint.route': o.route,
  };
  s.duration.record(o.seconds, o.error ? { ...common, 'error.type': o.error } : common);
  if (o.error) return;
  s.inputTokens.add(o.input, { ...common, 'gen_ai.token.modality': 'text' });
  s.outputTokens.add(o.output, { ...common, 'gen_ai.token.modality': 'text' });
  s.cost.add(o.usd, { 'gen_ai.request.model': o.model, 'gen_ai.provider.name': 'scripted', 'footprint.agent': 'desk', 'footprint.skill': o.skill, 'footprint.route': o.route });
}

function run(s: ContractMeter, outcome: string, seconds: number) {
  const attrs = { 'footprint.runner.kind': 'agent', 'footprint.runner.id': 'desk', 'footprint.run.outcome': outcome };
  s.runs.add(1, attrs);
  s.runDuration.record(seconds, attrs);
  // The run's one agent invocation (two model calls, one tool call) inside its one workflow.
  const agent = { 'gen_ai.agent.name': 'Desk', 'footprint.agent': 'desk' };
  const invocation = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.invocation.is_nested': true, ...agent };
  s.invocationDuration.record(seconds, outcome === 'error' ? { ...invocation, 'error.type': 'timeout' } : invocation);
  s.inferenceCalls.record(2, agent);
  s.toolCalls.record(1, agent);
  s.toolDuration.record(0.02, { 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.type': 'function', ...agent });
  s.invocationDuration.record(seconds, { 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.invocation.is_nested': false, 'gen_ai.workflow.name': 'front' });
}

/** What the bridge does at startup: every trip kind exists at 0. */
function preCreate(s: ContractMeter) {
  for (const kind of ['ping_pong', 'rejected_cap']) s.trips.add(0, { 'footprint.trip.kind': kind, 'footprint.agent': 'desk' });
}

const byLabel = (samples: PromSample[], label: string) => Object.fromEntries(samples.map((s) => [s.metric[label] ?? '', Number(s.value[1])]));

/** The shipped Alertmanager routing tree, webhooks pointed at the in-process sink, waits shortened. */
function shippedRoutingTo(sinkUrl: string): string {
  const amConfig = loadYaml(PATHS.alertmanager);
  for (const r of amConfig.receivers as Json[]) {
    for (const w of r.webhook_configs ?? []) w.url = sinkUrl + new URL(w.url).pathname;
  }
  const shorten = (route: Json) => {
    if (route.group_wait !== undefined) route.group_wait = '1s';
    if (route.group_interval !== undefined) route.group_interval = '1s';
    (route.routes ?? []).forEach(shorten);
  };
  shorten(amConfig.route);
  return YAML.stringify(amConfig);
}

describeWithBackends('OTLP metrics -> Prometheus 3 (shipped rules) -> Alertmanager -> webhook', ['prometheus', 'alertmanager'], (bins) => {
  let prom: Prometheus | undefined;
  let am: Backend | undefined;
  let sink: WebhookReceiver | undefined;
  let tripping: ContractMeter;
  let clean: ContractMeter;

  beforeAll(async () => {
    sink = await startWebhookReceiver();
    am = await startAlertmanager({ config: shippedRoutingTo(sink.url) }, bins.alertmanager);
    prom = await startPrometheus({ ruleFiles: [PATHS.rules], alertmanagerTarget: new URL(am.url).host, evaluationInterval: '1s' }, bins.prometheus);
    tripping = contractMeter(TRIPPING, prom.otlpMetricsUrl);
    clean = contractMeter(CLEAN, prom.otlpMetricsUrl);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([tripping?.provider.shutdown(), clean?.provider.shutdown()].map((p) => p?.catch(() => undefined)));
    await stopAll(prom, am, sink);
  });

  it('ingests a synthetic run of every contract instrument under the contract Prometheus names', async () => {
    // Phase 1: startup state plus some ordinary traffic.
    for (const s of [tripping, clean]) preCreate(s);
    for (let i = 0; i < 5; i++) llmCall(tripping, { model: 'm-large', route: 'desk>billing', skill: 'billing', seconds: 3.0, input: 1200, output: 300, usd: 0.08 });
    for (let i = 0; i < 20; i++) llmCall(tripping, { model: 'm-small', route: 'desk>faq', skill: 'faq', seconds: 0.05, input: 200, output: 50, usd: 0.001 });
    tripping.decisions.add(3, { 'footprint.router': 'desk', 'footprint.route.chosen': 'billing' });
    for (let i = 0; i < 3; i++) run(tripping, 'ok', 4.2);
    for (let i = 0; i < 3; i++) llmCall(clean, { model: 'm-small', route: 'desk>faq', skill: 'faq', seconds: 0.05, input: 100, output: 20, usd: 0.0000005 });
    run(clean, 'ok', 0.3);
    await Promise.all([tripping.provider.forceFlush(), clean.provider.forceFlush()]);
    await waitFor(async () => (await prom!.query(`count(footprint_loop_guard_trips_total{service_name=~"${TRIPPING}|${CLEAN}"})`))[0]?.value[1] === '4', {
      what: 'the pre-created trip series in Prometheus',
      timeoutMs: 40_000,
    });

    // Phase 2: the tripping service ping-pongs once and hits the rejected cap twice; the clean one doesn't.
    tripping.trips.add(1, { 'footprint.trip.kind': 'ping_pong', 'footprint.agent': 'desk' });
    tripping.trips.add(2, { 'footprint.trip.kind': 'rejected_cap', 'footprint.agent': 'desk' });
    tripping.escalations.add(1, { 'footprint.agent': 'desk', 'footprint.skill': 'billing' });
    tripping.fallbacks.add(1, { 'footprint.fallback.from_model': 'm-large', 'footprint.fallback.to_model': 'm-small', 'footprint.agent': 'desk' });
    tripping.rejections.add(3, { 'footprint.agent': 'desk', 'footprint.skill': 'billing' });
    llmCall(tripping, { model: 'm-large', route: 'desk>billing', skill: 'billing', seconds: 3.0, input: 0, output: 0, usd: 0, error: 'timeout' });
    for (let i = 0; i < 5; i++) llmCall(tripping, { model: 'm-large', route: 'desk>billing', skill: 'billing', seconds: 3.0, input: 1200, output: 300, usd: 0.12 });
    run(tripping, 'error', 9.5);
    llmCall(clean, { model: 'm-small', route: 'desk>faq', skill: 'faq', seconds: 0.05, input: 100, output: 20, usd: 0.0000005 });
    run(clean, 'ok', 0.3);
    await Promise.all([tripping.provider.forceFlush(), clean.provider.forceFlush()]);

    const failed = [...tripping.exporter.results, ...clean.exporter.results].filter((r) => r.code !== 0);
    expect(failed.map((r) => r.error?.message)).toEqual([]);

    const trips = await waitFor(
      async () => {
        const r = byLabel(await prom!.query(`sum by (footprint_trip_kind) (footprint_loop_guard_trips_total{service_name="${TRIPPING}"})`), 'footprint_trip_kind');
        return r.ping_pong === 1 && r.rejected_cap === 2 ? r : undefined;
      },
      { what: 'phase-2 trips in Prometheus', timeoutMs: 40_000 },
    );
    expect(trips).toEqual({ ping_pong: 1, rejected_cap: 2 });

    // Every contract name, and nothing else, exists for the service (translation = the contract).
    const want = [...SDK_METRIC_NAMES].sort();
    const names = await waitFor(
      async () => {
        const got = (await prom!.metricNames(`{service_name="${TRIPPING}"}`)).filter((n) => n !== 'target_info').sort();
        return got.length >= want.length ? got : undefined;
      },
      { what: 'every contract series of the tripping service', timeoutMs: 40_000 },
    ).catch(async () => (await prom!.metricNames(`{service_name="${TRIPPING}"}`)).sort());
    expect(names).toEqual(want);
  }, 90_000);

  it('answers PromQL for cost by route, trips by kind and p95 duration by model', async () => {
    const cost = byLabel(await prom!.query(`sum by (footprint_route) (footprint_llm_cost_usd_total{service_name="${TRIPPING}"})`), 'footprint_route');
    expect(cost['desk>billing']).toBeCloseTo(5 * 0.08 + 5 * 0.12, 9);
    expect(cost['desk>faq']).toBeCloseTo(20 * 0.001, 9);

    // The trip alerts' count (max - min over the window): exact, where increase() would extrapolate
    // these two samples to 1.5 and 3.
    const window = `footprint_loop_guard_trips_total{service_name="${TRIPPING}"}[5m]`;
    const inWindow = byLabel(await prom!.query(`sum by (footprint_trip_kind) (max_over_time(${window}) - min_over_time(${window}))`), 'footprint_trip_kind');
    expect(inWindow).toEqual({ ping_pong: 1, rejected_cap: 2 });
    const cleanTrips = byLabel(await prom!.query(`sum by (footprint_trip_kind) (footprint_loop_guard_trips_total{service_name="${CLEAN}"})`), 'footprint_trip_kind');
    expect(cleanTrips).toEqual({ ping_pong: 0, rejected_cap: 0 });

    const p95 = byLabel(
      await prom!.query(`histogram_quantile(0.95, sum by (le, gen_ai_request_model) (gen_ai_client_inference_duration_seconds_bucket{service_name="${TRIPPING}"}))`),
      'gen_ai_request_model',
    );
    expect(p95['m-large']).toBeGreaterThan(2.56);
    expect(p95['m-large']).toBeLessThanOrEqual(5.12);
    expect(p95['m-small']).toBeGreaterThan(0.04);
    expect(p95['m-small']).toBeLessThanOrEqual(0.08);

    // The current conventions' token counters (the default mode): one per token kind, modality text.
    const tokens = byLabel(
      await prom!.query(
        `label_replace(sum(gen_ai_client_inference_usage_input_tokens_total{service_name="${TRIPPING}", gen_ai_token_modality="text"}), "kind", "input", "", "") or ` +
          `label_replace(sum(gen_ai_client_inference_usage_output_tokens_total{service_name="${TRIPPING}", gen_ai_token_modality="text"}), "kind", "output", "", "")`,
      ),
      'kind',
    );
    expect(tokens).toEqual({ input: 10 * 1200 + 20 * 200, output: 10 * 300 + 20 * 50 });

    const errors = byLabel(await prom!.query(`sum by (error_type) (gen_ai_client_inference_duration_seconds_count{service_name="${TRIPPING}", error_type!=""})`), 'error_type');
    expect(errors).toEqual({ timeout: 1 });
    const runs = byLabel(await prom!.query(`sum by (footprint_run_outcome) (footprint_runs_total{service_name="${TRIPPING}"})`), 'footprint_run_outcome');
    expect(runs).toEqual({ ok: 3, error: 1 });
  }, 30_000);

  it('fires ping-pong and rejected-cap alerts for the tripping service only, through the shipped routing', async () => {
    const isFiring = (name: string, service: string) => (a: { labels: Record<string, string>; status: string }) =>
      a.labels.alertname === name && a.labels.service_name === service && a.status === 'firing';
    const [pingPong, rejected] = await Promise.all([
      sink!.waitForAlert(isFiring('FootprintPingPongTrip', TRIPPING), { timeoutMs: 90_000 }),
      sink!.waitForAlert(isFiring('FootprintRejectedCapTrips', TRIPPING), { timeoutMs: 90_000 }),
    ]);
    for (const a of [pingPong, rejected]) {
      expect(a.path).toBe('/alertmanager/page'); // severity=critical route of the shipped tree
      expect(a.labels).toMatchObject({ footprint_agent: 'desk', severity: 'critical', team: 'agents' });
    }
    expect(pingPong.annotations.summary).toBe(`Agent desk ping-ponged between skills (${TRIPPING})`);
    expect(pingPong.annotations.description).toMatch(/^1 ping-pong trip\(s\) in the last 5m/);
    expect(rejected.annotations.description).toMatch(/^2 rejected-cap trip\(s\) in the last 10m/);

    // Let Prometheus evaluate a few more rounds after the alerts fired, then nothing may concern the clean service.
    const firstRound = Date.now();
    await waitFor(
      async () => {
        const evaluated = (await prom!.rules()).flatMap((g) => g.rules).map((r) => Date.parse((r as { lastEvaluation?: string }).lastEvaluation ?? ''));
        return evaluated.length > 0 && evaluated.every((t) => t > firstRound + 2_000);
      },
      { what: 'two more rule evaluation rounds', timeoutMs: 15_000 },
    );
    expect((await prom!.rules()).flatMap((g) => g.rules).filter((r) => r.lastError)).toEqual([]);
    expect((await prom!.alerts()).filter((a) => a.labels.service_name === CLEAN)).toEqual([]);
    expect(sink!.alerts().filter((a) => a.labels.service_name === CLEAN)).toEqual([]);
    // Bounds, not timings: the real-stack suites run beside this one on 2 cores.
  }, 150_000);

  it("fires FootprintRunawayAgent for the runaway demo's billing agent only, on the ticket route; the same load without --runaway stays silent", async () => {
    const RUNAWAY = 'footprint-e2e-runaway';
    const CALM = 'footprint-e2e-calm';
    const metricsOnly = (service: string) => ({
      OTEL_SERVICE_NAME: service,
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: prom!.otlpMetricsUrl,
      // Prometheus's increase() needs two samples of a series inside the window: a load that ends
      // within one export interval leaves one (its final export) and no alert. The compiled demo runs
      // these 90 runs in about 2 s, so a 250 ms interval gives every series several samples.
      OTEL_METRIC_EXPORT_INTERVAL: '250',
    });
    const args = ['--runs', '90', '--concurrency', '4', '--seed', '9'];
    const [runaway, calm] = await Promise.all([
      runDemo({ args: [...args, '--runaway'], env: metricsOnly(RUNAWAY) }),
      runDemo({ args, env: metricsOnly(CALM) }),
    ]);
    expect([runaway.exitCode, calm.exitCode]).toEqual([0, 0]);
    const alert = await sink!.waitForAlert((a) => a.labels.alertname === 'FootprintRunawayAgent' && a.status === 'firing', { timeoutMs: 90_000 });
    expect([alert.path, alert.labels]).toEqual([
      '/alertmanager/ticket',
      { alertname: 'FootprintRunawayAgent', service_name: RUNAWAY, footprint_agent: 'billing', severity: 'warning', team: 'agents' },
    ]);
    // Every billing invocation made 24 tool calls, in the (16, 32] bucket: p95 interpolates to 31.2.
    expect(alert.annotations.summary).toBe(`Agent billing runs away: p95 31 tool calls per invocation (${RUNAWAY})`);
    const p95 = await prom!.query(
      `histogram_quantile(0.95, sum by (service_name, footprint_agent, le) (increase(gen_ai_invoke_agent_tool_calls_bucket{service_name=~"${RUNAWAY}|${CALM}"}[15m])))`,
    );
    const byAgent = Object.fromEntries(p95.map((r) => [`${r.metric.service_name}/${r.metric.footprint_agent}`, Number(r.value[1])]));
    expect(byAgent[`${RUNAWAY}/billing`]).toBeCloseTo(31.2, 4);
    expect(Object.entries(byAgent).filter(([, v]) => v > 8).map(([k]) => k)).toEqual([`${RUNAWAY}/billing`]);
    expect((await prom!.alerts()).filter((a) => a.labels.alertname === 'FootprintRunawayAgent').map((a) => a.labels.service_name)).toEqual([RUNAWAY]);
    expect(sink!.alerts().filter((a) => a.labels.alertname === 'FootprintRunawayAgent' && a.labels.service_name === CALM)).toEqual([]);
  }, 180_000);
});
