// The stack, run for real: the collector of deploy/otel-collector/distribution, Jaeger v2,
// Prometheus 3 and Alertmanager (built by scripts/build-backends.sh) and deploy/alert-sink, each
// started from the shipped files (test/support/stack/localize.ts changes only hosts, ports and mount
// paths), fed by `footprint-otel demo` in load mode over OTLP. An OTLP tap between the demo and the
// collector keeps the ledger of what the app sent; Jaeger, Prometheus and Alertmanager must
// agree with it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackends, waitFor } from '../support/backends.js';
import { jaegerEventNames, runDemo, type DemoRun, type JaegerTrace } from '../support/stack/clients.js';
import { mustKeepReason, startOtlpTap, TAP_PROTOCOL_ENV, type OtlpTap, type TappedTrace } from '../support/stack/otlp-tap.js';
import { startStack, type RunningStack } from '../support/stack/start-stack.js';
import { hostAddress } from '../support/stack/stack.js';
import { dashboardQueries, substituteGrafanaMacros } from './promql.js';
import { OPTIONAL_FEATURE_METRIC_NAMES, SDK_METRIC_NAMES, SDK_METRIC_NAMES_V1_41, TELEMETRY_SELF_METRIC_NAMES } from './exported-metric-names.js';
import { durationSeconds, loadYaml, PATHS, prometheusAlertRules, repoPath } from './stack-files.js';

const SERVICE = 'footprint-stack-load';
const CLEAN_SERVICE = 'footprint-stack-clean';
/** A run recorded offline (telemetry files), loaded later with scripts/replay-telemetry.mjs. */
const REPLAY_SERVICE = 'footprint-stack-replay';
const REPLAY_RUNS = 40;
/** Runs of the load: enough clean traces (about 60%) to measure the baseline keep rate. */
const LOAD = ['--runs', '400', '--concurrency', '8', '--seed', '7'];
/** One ticket the desk answers from billing without any loop: a clean load. */
const CLEAN_TICKET = ['--ticket', 'Please send me a copy of my last invoice'];
/** The demo's runaway billing agent (demo --runaway): 24 tool calls per invocation, no loop guard trips. */
const RUNAWAY_SERVICE = 'footprint-stack-runaway';
/**
 * The same load from processes in the other two semconv modes (src/otel/encoding/semconvMode.ts):
 * the v1.41 names only, and both names (each renamed metric once under each).
 */
const V1_41_SERVICE = 'footprint-stack-v1-41';
const BOTH_SERVICE = 'footprint-stack-both';
const MODE_ENV = { [V1_41_SERVICE]: 'gen_ai_v1.41', [BOTH_SERVICE]: 'gen_ai_latest_experimental/dup' } as const;
const RUNAWAY = ['--runaway', '--runs', '40', '--concurrency', '8', '--seed', '9'];

const collectorConfig = loadYaml(PATHS.collector);
const DECISION_WAIT_MS = durationSeconds(collectorConfig.processors.tail_sampling.decision_wait) * 1000;
/** compose's default for FOOTPRINT_SAMPLE_PERCENT (the tests do not set it). */
const SAMPLE_PERCENT = 25;

/**
 * The demo's metrics reach Prometheus only as often as the SDK exports them (OTEL_METRIC_EXPORT_INTERVAL,
 * 60 s by default: a 15 s load would give every series ONE sample and every rate() nothing). The
 * tests export every second (the demo itself exports every 5 s when the variable is unset).
 */
const demoEnv = (service: string, endpoint: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  ...TAP_PROTOCOL_ENV,
  OTEL_SERVICE_NAME: service,
  OTEL_METRIC_EXPORT_INTERVAL: '1000',
});

/**
 * Count-like panels read max - min over the range per series (exact: a process's counters never
 * reset), ratio panels increase() / increase() (the extrapolation cancels). The demo prints dollars
 * to 6 decimals, hence a tolerance: 0.1% of the demo's own total. (With increase() the totals read
 * 3.6% high on this load: Prometheus extrapolates half a sample interval past the last sample.)
 */
const COUNT_TOLERANCE = 0.001;
/**
 * Ratio panels divide increase() by increase(): the extrapolation cancels only where both series span
 * the same samples, so a series first seen a second later reads a little off. 1% of the hand value.
 */
const RATIO_TOLERANCE = 0.01;

/**
 * A query this suite's loads feed: not one on the series of an optional feature (MCP tools, streamed
 * calls), which the scripted desk exports only with --mcp or --stream (real-stack-mcp.test.ts checks
 * MCP's series in Prometheus; test/otel/metrics/streamed.test.ts what the SDK records for a streamed call).
 */
function exercisedByTheLoad(q: { expr: string }): boolean {
  return !OPTIONAL_FEATURE_METRIC_NAMES.some((name) => q.expr.includes(name.replace(/_(bucket|sum|count)$/, '')));
}

/** A panel's PromQL for one service: $service = that service, other variables match all, $__range = 30m. */
function panelQuery(file: string, title: string, refId = 'A', service = SERVICE): string {
  const q = dashboardQueries().find((d) => d.where.startsWith(`${file} panel `) && d.where.endsWith(`"${title}" ${refId}`));
  if (!q) throw new Error(`no panel "${title}" ${refId} in ${file}`);
  return forService(q.raw, service);
}

function forService(raw: string, service: string): string {
  return substituteGrafanaMacros(raw.replaceAll('$service', service).replace(/\$\{?__range\}?/g, '30m'));
}

/** The README's stack recipe, verbatim: `npm start -- --runs 300 --concurrency 8` with only the endpoint set. */
const RECIPE = { args: ['--runs', '300', '--concurrency', '8'], service: 'footprint-otel-demo' };

/** A demo with no OTLP endpoint (files under telemetry/), then the README's replay command into `endpoint`. */
async function recordOfflineAndReplay(endpoint: string): Promise<number | null> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'footprint-replay-'));
  try {
    const offline = await runDemo({ args: ['--runs', String(REPLAY_RUNS), '--seed', '11'], env: { OTEL_SERVICE_NAME: REPLAY_SERVICE, OTEL_EXPORTER_OTLP_ENDPOINT: '' }, cwd: dir });
    expect(offline.exitCode).toBe(0);
    const child = spawn(process.execPath, [repoPath('scripts/replay-telemetry.mjs'), path.join(dir, 'telemetry'), endpoint], { stdio: 'inherit' });
    return await new Promise((resolve) => child.once('exit', resolve));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeWithBackends('the real stack: demo -> collector -> Jaeger / Prometheus 3 -> Alertmanager', ['otelcol', 'jaeger', 'prometheus', 'alertmanager'], (bins) => {
  let stack: RunningStack;
  let tap: OtlpTap;
  let load: DemoRun;
  let clean: DemoRun;
  let runaway: DemoRun;
  let byMode: Record<string, DemoRun>;
  let replayExit: number | null;
  let recipe: DemoRun;
  let sent: TappedTrace[];
  let kept: Map<string, JaegerTrace>;

  beforeAll(async () => {
    stack = await startStack({ bins: { otelcol: bins.otelcol, jaeger: bins.jaeger, prometheus: bins.prometheus, alertmanager: bins.alertmanager } });
    tap = await startOtlpTap(() => stack.otlpUrl);
    load = await runDemo({ args: LOAD, env: demoEnv(SERVICE, tap.url) });
    clean = await runDemo({ args: CLEAN_TICKET, env: demoEnv(CLEAN_SERVICE, tap.url) });
    runaway = await runDemo({ args: RUNAWAY, env: demoEnv(RUNAWAY_SERVICE, tap.url) });
    byMode = { [SERVICE]: load };
    for (const [service, optIn] of Object.entries(MODE_ENV)) {
      byMode[service] = await runDemo({ args: LOAD, env: { ...demoEnv(service, tap.url), OTEL_SEMCONV_STABILITY_OPT_IN: optIn } });
    }
    replayExit = await recordOfflineAndReplay(tap.url);
    // No OTEL_METRIC_EXPORT_INTERVAL (so the SDK's 60 s: one export, at exit) and no service name.
    recipe = await runDemo({ args: RECIPE.args, env: { OTEL_EXPORTER_OTLP_ENDPOINT: stack.otlpUrl, OTEL_METRIC_EXPORT_INTERVAL: '' } });
    sent = [...tap.traces().values()].filter((t) => t.serviceName === SERVICE);
    // Every trace is decided decision_wait after its first span; wait that long after the last one.
    const mustKeep = sent.filter((t) => mustKeepReason(t) !== undefined).map((t) => t.traceId);
    await new Promise((r) => setTimeout(r, Math.max(0, tap.lastTraceAt() + DECISION_WAIT_MS + 5_000 - Date.now())));
    kept = await waitFor(
      async () => {
        const found = new Map((await stack.jaeger.search(SERVICE)).map((t) => [t.traceID, t]));
        return mustKeep.every((id) => found.has(id)) ? found : undefined;
      },
      { what: 'every must-keep trace in Jaeger', timeoutMs: 60_000, intervalMs: 2_000 },
    );
  }, 300_000);

  afterAll(async () => {
    await tap?.close();
    await stack?.stop();
  });

  it('runs the demo without an error and with every span accepted', () => {
    expect(load.exitCode).toBe(0);
    // stderr carries the progress bar only: no export-failure or dropped-span warning.
    expect(load.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([]);
    expect(load.summary.runs).toBe(400);
    expect(sent.length).toBe(400);
    expect(Object.keys(tap.requests()).filter((k) => !k.endsWith(' 200'))).toEqual([]);
  });

  it("sends no metric data point with an attribute whose value is '' (the router's own calls carry no footprint.route)", () => {
    expect(tap.metricNames()).toContain('footprint.llm.cost.usd');
    expect(tap.emptyMetricAttributes()).toEqual([]);
  });

  it('starts the collector with the shipped config: no warning, no error, health check up', async () => {
    const log = stack.programs['otel-collector'].logs();
    // OTTL's "please rewrite" hint (an unprefixed path) is a deprecation too, logged at info level.
    const bad = log.split('\n').filter((line) => /\t(warn|error|fatal|panic)\t/i.test(line) || /deprecated|unknown|invalid|please rewrite/i.test(line));
    expect(bad).toEqual([]);
    expect(log).toContain('Everything is ready. Begin running and processing data.');
    const health = await fetch(`http://127.0.0.1:${stack.ports['otel-collector']![13133]}/`);
    expect(health.status).toBe(200);
    // Jaeger and Prometheus, too, start from their shipped files without complaint. (Jaeger built from
    // its Go module has no web UI assets and says so once: scripts/build-backends.sh.)
    // Jaeger 2.13 also has a gRPC client dial localhost:4317, which inside its container is its own
    // OTLP receiver and here is nothing: that connection warning is not about the shipped file.
    const knownUiNotice = /ui assets not embedded in the binary, using a placeholder|failed to connect to \{Addr: "127\.0\.0\.1:4317", ServerName: "localhost:4317"/;
    for (const service of ['jaeger', 'prometheus', 'alertmanager'] as const) {
      const lines = stack.programs[service].logs().split('\n').filter((l) => !knownUiNotice.test(l));
      expect(lines.filter((l) => /level=(warn|error)|\t(warn|error)\t|deprecated/i.test(l)), service).toEqual([]);
    }
  });

  it('finds in Jaeger every run that tripped, by footprint.trip.kinds for each kind, and every escalated run', async () => {
    const sentWith = (pred: (t: TappedTrace) => boolean) => sent.filter(pred).map((t) => t.traceId).sort();
    const runSpan = (t: TappedTrace) => t.spans.find((s) => s.parentSpanId === '')!;
    for (const kind of ['ping_pong', 'rejected_cap']) {
      const found = (await stack.jaeger.search(SERVICE, { 'footprint.trip.kinds': kind })).map((t) => t.traceID).sort();
      expect(found).toEqual(sentWith((t) => runSpan(t).attributes['footprint.trip.kinds'] === kind));
      expect(found.length).toBe(load.summary.trips[kind]);
    }
    const escalated = (await stack.jaeger.search(SERVICE, { 'footprint.escalated': 'true' })).map((t) => t.traceID).sort();
    expect(escalated).toEqual(sentWith((t) => runSpan(t).attributes['footprint.escalated'] === true));
    expect(escalated.length).toBe(load.summary.escalations);
  });

  it('keeps every kept trace whole: the spans the demo sent, one root, events on the right spans', () => {
    const problems: string[] = [];
    for (const trace of sent) {
      const inJaeger = kept.get(trace.traceId);
      if (!inJaeger) continue;
      const roots = inJaeger.spans.filter((s) => s.references.filter((r) => r.refType === 'CHILD_OF').length === 0);
      if (roots.length !== 1) problems.push(`${trace.traceId}: ${roots.length} roots`);
      if (inJaeger.spans.length !== trace.spans.length) problems.push(`${trace.traceId}: ${inJaeger.spans.length} of ${trace.spans.length} spans`);
      const eventsBySpan = new Map(inJaeger.spans.map((s) => [s.spanID, jaegerEventNames(s).sort().join(',')]));
      for (const span of trace.spans) {
        if (eventsBySpan.get(span.spanId) !== [...span.events].sort().join(',')) problems.push(`${trace.traceId}/${span.spanId} ${span.name}: events differ`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('tail-samples as configured: every error, trip and escalation kept; clean runs near the baseline percentage', () => {
    const byReason = (reason: ReturnType<typeof mustKeepReason>) => sent.filter((t) => mustKeepReason(t) === reason);
    for (const reason of ['error', 'trip', 'escalation'] as const) {
      const traces = byReason(reason);
      expect(traces.filter((t) => !kept.has(t.traceId)).map((t) => t.traceId), `${reason} traces dropped`).toEqual([]);
    }
    const cleanTraces = byReason(undefined);
    const rate = cleanTraces.filter((t) => kept.has(t.traceId)).length / cleanTraces.length;
    // The probabilistic policy hashes trace ids: a binomial draw. Four standard deviations.
    const p = SAMPLE_PERCENT / 100;
    const tolerance = 4 * Math.sqrt((p * (1 - p)) / cleanTraces.length);
    console.info(`[real-stack] clean traces kept: ${rate.toFixed(3)} of ${cleanTraces.length} (expected ${p} +- ${tolerance.toFixed(3)})`);
    expect(Math.abs(rate - p)).toBeLessThanOrEqual(tolerance);
  });

  it('ingests every SDK metric and the span metrics into Prometheus 3 over OTLP', async () => {
    const names = await stack.prometheus.get<{ data: string[] }>(`/api/v1/label/__name__/values?match[]=${encodeURIComponent(`{service_name="${SERVICE}"}`)}`);
    // target_info: Prometheus's series for the OTLP resource; ALERTS*: the rules' own series.
    const sdk = names.data.filter((n) => !n.startsWith('traces_span_metrics_') && n !== 'target_info' && !n.startsWith('ALERTS')).sort();
    expect(sdk).toEqual([...SDK_METRIC_NAMES, ...TELEMETRY_SELF_METRIC_NAMES].sort());
    expect(names.data.filter((n) => n.startsWith('traces_span_metrics_')).sort()).toEqual([
      'traces_span_metrics_calls_total',
      'traces_span_metrics_duration_seconds_bucket',
      'traces_span_metrics_duration_seconds_count',
      'traces_span_metrics_duration_seconds_sum',
    ]);
    // The span metrics see every span before sampling: their count is what the app sent.
    const spansSent = sent.reduce((n, t) => n + t.spans.length, 0);
    const calls = await waitFor(
      async () => {
        const v = Number((await stack.prometheus.query(`sum(traces_span_metrics_calls_total{service_name="${SERVICE}"})`))[0]?.value[1]);
        return v === spansSent ? v : undefined;
      },
      { what: 'span metrics covering every span sent', timeoutMs: 40_000, intervalMs: 2_000 },
    );
    expect(calls).toBe(spansSent);
  });

  it('answers every dashboard panel query with data after the load', async () => {
    const empty: string[] = [];
    for (const q of dashboardQueries().filter(exercisedByTheLoad)) {
      const result = await stack.prometheus.query(q.expr);
      if (result.length === 0) empty.push(`${q.where}: ${q.expr}`);
    }
    expect(empty).toEqual([]);
  });

  it('takes the v1.41 mode\'s metric names, and answers every dashboard panel with data from that mode alone', async () => {
    expect(byMode[V1_41_SERVICE]!.exitCode).toBe(0);
    const names = await stack.prometheus.get<{ data: string[] }>(`/api/v1/label/__name__/values?match[]=${encodeURIComponent(`{service_name="${V1_41_SERVICE}"}`)}`);
    const sdk = names.data.filter((n) => !n.startsWith('traces_span_metrics_') && n !== 'target_info' && !n.startsWith('ALERTS')).sort();
    expect(sdk).toEqual([...SDK_METRIC_NAMES_V1_41, ...TELEMETRY_SELF_METRIC_NAMES].sort());
    const empty: string[] = [];
    for (const q of dashboardQueries().filter(exercisedByTheLoad)) {
      // A template variable's query is label_values(selector, label): its selector must select series.
      const raw = /^label_values\((.+),\s*[A-Za-z_]\w*\)$/.exec(q.raw.trim())?.[1] ?? q.raw;
      if ((await stack.prometheus.query(forService(raw, V1_41_SERVICE))).length === 0) empty.push(`${q.where}: ${q.expr}`);
    }
    expect(empty).toEqual([]);
  });

  it('reads each process\'s own token and trip totals in every mode: the both mode counts nothing twice', async () => {
    const readings: Array<[string, number, number]> = [];
    const scalar = async (expr: string) => Number((await stack.prometheus.query(expr))[0]?.value[1]);
    for (const [service, run] of Object.entries(byMode)) {
      expect(run.exitCode).toBe(0);
      const rows = await stack.prometheus.query(panelQuery('routes-and-cost.json', 'Routes in range (click a route for its traces in Jaeger)', 'C', service));
      const total = rows.reduce((sum, row) => sum + Number(row.value[1]), 0);
      readings.push([`${service} tokens`, total, run.summary.tokens.input + run.summary.tokens.output]);
      readings.push([`${service} ping-pong trips`, await scalar(panelQuery('loop-guards.json', 'Ping-pong trips (range)', 'A', service)), run.summary.trips.ping_pong!]);
      readings.push([`${service} rejected-cap trips`, await scalar(panelQuery('loop-guards.json', 'Rejected-cap trips (range)', 'A', service)), run.summary.trips.rejected_cap!]);
    }
    console.info(`[real-stack] per mode (panel / demo): ${readings.map(([what, got, want]) => `${what} ${got} / ${want}`).join(', ')}`);
    for (const [what, got, want] of readings) expect(Math.abs(got - want), `${what}: panel ${got}, demo ${want}`).toBeLessThanOrEqual(want * COUNT_TOLERANCE);
  });

  it("reads the demo's own totals in the count-like panels (within the stated tolerance)", async () => {
    const byLabel = async (expr: string, label: string) =>
      // A series without the label (the router's own calls have no footprint_route) is the '' group.
      Object.fromEntries((await stack.prometheus.query(expr)).map((r) => [r.metric[label] ?? '', Number(r.value[1])]));
    const scalar = async (expr: string) => Number((await stack.prometheus.query(expr))[0]?.value[1]);
    const s = load.summary;
    const near = (got: number, want: number, what: string) =>
      expect(Math.abs(got - want), `${what}: panel ${got}, demo ${want}`).toBeLessThanOrEqual(Math.abs(want) * COUNT_TOLERANCE + 1e-9);
    const readings: Array<[string, number, number]> = [
      ['runs ok', (await byLabel(panelQuery('agent-runs-overview.json', 'Outcomes (range)'), 'footprint_run_outcome')).ok!, s.outcomes.ok!],
      ['LLM spend', await scalar(panelQuery('agent-runs-overview.json', 'LLM spend in range')), s.costUsd],
      ['spend (routes)', await scalar(panelQuery('routes-and-cost.json', 'Spend in range')), s.costUsd],
      ['ping-pong trips', await scalar(panelQuery('loop-guards.json', 'Ping-pong trips (range)')), s.trips.ping_pong!],
      ['rejected-cap trips', await scalar(panelQuery('loop-guards.json', 'Rejected-cap trips (range)')), s.trips.rejected_cap!],
      ['escalations per run', await scalar(panelQuery('loop-guards.json', 'Escalations per run (range)')), s.escalations / s.runs],
      ['rejections per run', await scalar(panelQuery('loop-guards.json', 'Skill rejections per run (range)')), s.rejections / s.runs],
      ['cost per run', await scalar(panelQuery('routes-and-cost.json', 'Average cost per run (range)')), s.costUsd / s.runs],
    ];
    const routes = await byLabel(panelQuery('routes-and-cost.json', 'Routes in range (click a route for its traces in Jaeger)'), 'footprint_route');
    expect(Object.keys(routes).sort()).toEqual(Object.keys(s.costByRoute).sort());
    for (const [route, usd] of Object.entries(s.costByRoute)) readings.push([`spend ${route}`, routes[route]!, usd]);
    console.info(`[real-stack] count-like panels (panel / demo):\n${readings.map(([what, got, want]) => `  ${what}: ${got} / ${want} (${(((got - want) / want) * 100).toFixed(2)}%)`).join('\n')}`);
    for (const [what, got, want] of readings) near(got, want, what);
  });

  it('counts one routing act as one decision, in span events and metrics alike, and the cost-per-decision panels match the hand-computed values', async () => {
    // Hand count from what the app sent: every footprint.composition.route_decided span event, by the
    // route its choice opens (the run recorder's footprint.route.chosen: '' -> _none, off-roster -> _not_in_roster).
    const fromSpans: Record<string, number> = {};
    for (const trace of sent) {
      for (const span of trace.spans) {
        span.events.forEach((name, i) => {
          if (name !== 'footprint.composition.route_decided') return;
          const a = span.eventAttributes[i]!;
          const branch = a['footprint.composition.route_decided.in_roster'] === false ? '_not_in_roster' : String(a['footprint.composition.route_decided.chosen']) || '_none';
          const segment = `${String(a['footprint.composition.route_decided.composition_id'])}>${branch}`;
          const route = a['footprint.route'] ? `${String(a['footprint.route'])}/${segment}` : segment;
          fromSpans[route] = (fromSpans[route] ?? 0) + 1;
        });
      }
    }
    // The desk decides twice per run: the hand-off, then "nobody" when the swarm is done.
    expect(fromSpans['desk>_none']).toBe(load.summary.runs);
    const totalDecisions = Object.values(fromSpans).reduce((a, b) => a + b, 0);
    const byChosen = async (expr: string) =>
      Object.fromEntries((await stack.prometheus.query(expr)).map((r) => [r.metric.footprint_route_chosen ?? '', Number(r.value[1])]));
    // A process's counter never resets: its last value is its total.
    const inMetrics = await byChosen(`sum by (footprint_route_chosen) (max_over_time(footprint_route_decisions_total{service_name="${SERVICE}"}[30m]))`);
    expect(inMetrics).toEqual(fromSpans);

    // "Decisions/min" draws each route once: one series per chosen route, one router (the desk).
    const perMinute = await stack.prometheus.query(panelQuery('routes-and-cost.json', 'Routing decisions / min by chosen route'));
    expect(perMinute.map((r) => `${r.metric.footprint_router}:${r.metric.footprint_route_chosen}`).sort()).toEqual(
      Object.keys(fromSpans).map((route) => `desk:${route}`).sort(),
    );

    // Cost per decision by chosen route: the demo's cost on a route / the decisions that opened it.
    // desk>_none opens no member, so it has no cost and no bar; the router's own calls (no route) are
    // not a chosen route either: they are in the average below.
    const s = load.summary;
    const want: Record<string, number> = {};
    for (const [route, count] of Object.entries(fromSpans)) if (s.costByRoute[route] !== undefined) want[route] = s.costByRoute[route]! / count;
    const perDecision = await byChosen(panelQuery('routes-and-cost.json', 'Cost per decision by chosen route (range)'));
    expect(Object.keys(perDecision).sort()).toEqual(Object.keys(want).sort());
    const average = Number((await stack.prometheus.query(panelQuery('routes-and-cost.json', 'Average cost per routing decision (range)')))[0]?.value[1]);
    const readings: Array<[string, number, number]> = [
      ...Object.entries(want).map(([route, usd]): [string, number, number] => [`per decision ${route}`, perDecision[route]!, usd]),
      ['average per decision', average, s.costUsd / totalDecisions],
    ];
    console.info(`[real-stack] cost per decision (panel / hand): decisions ${JSON.stringify(fromSpans)}\n${readings.map(([what, got, w]) => `  ${what}: ${got} / ${w} (${(((got - w) / w) * 100).toFixed(3)}%)`).join('\n')}`);
    for (const [what, got, w] of readings) expect(Math.abs(got - w), `${what}: panel ${got}, hand ${w}`).toBeLessThanOrEqual(w * RATIO_TOLERANCE);
  });

  it('loads the shipped rules, fires both trip alerts, and Alertmanager delivers them to the alert-sink on the paging route; nothing for a clean load', async () => {
    const rules = await stack.prometheus.get<{ data: { groups: Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }> } }>('/api/v1/rules');
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name).sort()).toEqual(prometheusAlertRules().map((r) => r.alert).sort());
    expect(loaded.filter((r) => r.health !== 'ok' || r.lastError)).toEqual([]);

    // Both fire in Prometheus 3, Alertmanager routes them by the shipped tree to the paging receiver
    // (group_wait 5s), and its webhook posts them to deploy/alert-sink at /alertmanager/page.
    const TRIP_ALERTS = ['FootprintPingPongTrip', 'FootprintRejectedCapTrips'];
    const delivered = await waitFor(
      async () => {
        const mine = (await stack.sinkAlerts()).filter((a) => a.labels.service_name === SERVICE && a.status === 'firing');
        return TRIP_ALERTS.every((name) => mine.some((a) => a.labels.alertname === name)) ? mine : undefined;
      },
      { what: 'both trip alerts posted to the alert-sink', timeoutMs: 90_000, intervalMs: 2_000 },
    );
    // One notification per alert group (alertname, service, agent): the desk's tech-support agent is the
    // one with the skill graph that loops.
    expect(delivered.map((a) => [a.path, a.labels.alertname, a.labels.footprint_agent, a.labels.severity, a.labels.team]).sort()).toEqual([
      ['/alertmanager/page', 'FootprintPingPongTrip', 'tech', 'critical', 'agents'],
      ['/alertmanager/page', 'FootprintRejectedCapTrips', 'tech', 'critical', 'agents'],
    ]);
    type AmAlert = { labels: Record<string, string>; status: { state: string }; receivers: Array<{ name: string }> };
    const amUrl = `http://${hostAddress(stack.ports, 'alertmanager', 9093)}`;
    const inAlertmanager = (await (await fetch(`${amUrl}/api/v2/alerts`)).json()) as AmAlert[];
    for (const name of TRIP_ALERTS) {
      const alert = inAlertmanager.find((a) => a.labels.service_name === SERVICE && a.labels.alertname === name)!;
      expect(alert.receivers.map((r) => r.name)).toEqual(['agents-page']);
    }
    expect(clean.exitCode).toBe(0);
    expect(clean.summary.trips).toEqual({ ping_pong: 0, rejected_cap: 0 });
    const firing = await stack.prometheus.get<{ data: { alerts: Array<{ labels: Record<string, string> }> } }>('/api/v1/alerts');
    expect(firing.data.alerts.filter((a) => a.labels.service_name === CLEAN_SERVICE)).toEqual([]);
    expect(inAlertmanager.filter((a) => a.labels.service_name === CLEAN_SERVICE)).toEqual([]);
    expect((await stack.sinkAlerts()).filter((a) => a.labels.service_name === CLEAN_SERVICE)).toEqual([]);
  }, 120_000);

  it('fires FootprintRunawayAgent for the runaway billing agent only, ticketed through Alertmanager; silent on the tripping load and the clean one', async () => {
    expect(runaway.exitCode).toBe(0);
    expect(runaway.summary.runs).toBe(40);
    const delivered = await waitFor(
      async () => {
        const mine = (await stack.sinkAlerts()).filter((a) => a.labels.alertname === 'FootprintRunawayAgent' && a.status === 'firing');
        return mine.length > 0 ? mine : undefined;
      },
      { what: 'FootprintRunawayAgent posted to the alert-sink', timeoutMs: 120_000, intervalMs: 2_000 },
    );
    // One group per alert and service (severity warning: the ticket route, grouped by alertname and service).
    expect(delivered.map((a) => [a.path, a.labels.service_name, a.labels.footprint_agent, a.labels.severity])).toEqual([
      ['/alertmanager/ticket', RUNAWAY_SERVICE, 'billing', 'warning'],
    ]);
    const firing = await stack.prometheus.get<{ data: { alerts: Array<{ labels: Record<string, string>; state: string; value: string }> } }>('/api/v1/alerts');
    const runawayAlerts = firing.data.alerts.filter((a) => a.labels.alertname === 'FootprintRunawayAgent');
    expect(runawayAlerts.map((a) => [a.labels.service_name, a.labels.footprint_agent, a.state])).toEqual([[RUNAWAY_SERVICE, 'billing', 'firing']]);
    // Every billing invocation made 24 tool calls (bucket (16, 32]): the p95 interpolates to 31.2.
    expect(Number(runawayAlerts[0]!.value)).toBeCloseTo(31.2, 4);
    // The load that trips loop guards (its tech agent at most 8 tool calls per invocation) and the clean ticket: nothing.
    const p95 = await stack.prometheus.query(
      `histogram_quantile(0.95, sum by (service_name, footprint_agent, le) (increase(gen_ai_invoke_agent_tool_calls_bucket{service_name=~"${SERVICE}|${CLEAN_SERVICE}"}[15m])))`,
    );
    expect(p95.filter((r) => Number(r.value[1]) > 8)).toEqual([]);
    expect(p95.map((r) => `${r.metric.service_name}/${r.metric.footprint_agent}`).sort()).toEqual(
      [`${CLEAN_SERVICE}/billing`, `${CLEAN_SERVICE}/router`, `${SERVICE}/billing`, `${SERVICE}/router`, `${SERVICE}/tech`].sort(),
    );
  }, 150_000);

  it('links span-metric exemplars to traces: each is a trace the app sent, and those kept open in Jaeger', async () => {
    const end = Date.now() / 1000;
    const params = new URLSearchParams({ query: `traces_span_metrics_duration_seconds_bucket{service_name="${SERVICE}"}`, start: String(end - 600), end: String(end) });
    const body = await stack.prometheus.get<{ data: Array<{ exemplars: Array<{ labels: Record<string, string> }> }> }>(`/api/v1/query_exemplars?${params}`);
    const traceIds = [...new Set(body.data.flatMap((s) => s.exemplars.map((e) => e.labels.trace_id!)))];
    const sentIds = new Set(sent.map((t) => t.traceId));
    expect(traceIds.filter((id) => !sentIds.has(id))).toEqual([]);
    const keptIds = traceIds.filter((id) => kept.has(id));
    expect(keptIds.length).toBeGreaterThanOrEqual(1);
    for (const id of keptIds) expect((await stack.jaeger.trace(id))?.spans.length, id).toBe(tap.traces().get(id)!.spans.length);
  });

  it("serves Jaeger's monitor (SPM) calls and latencies for the service from Prometheus", async () => {
    const params = new URLSearchParams({ service: SERVICE, endTs: String(Date.now()), lookback: '600000', step: '15000', ratePer: '60000', spanKind: 'internal' });
    type Spm = { metrics: Array<{ labels: Array<{ name: string; value: string }>; metricPoints: Array<{ gaugeValue: { doubleValue: number } }> }> };
    const calls = await stack.jaeger.get<Spm>(`/api/metrics/calls?${params}`);
    const latencies = await stack.jaeger.get<Spm>(`/api/metrics/latencies?${params}&quantile=0.95`);
    for (const answer of [calls, latencies]) {
      const points = answer.metrics.flatMap((m) => m.metricPoints.map((p) => p.gaugeValue.doubleValue));
      expect(points.filter((v) => v > 0).length).toBeGreaterThanOrEqual(1);
      expect(answer.metrics.flatMap((m) => m.labels.filter((l) => l.name === 'service_name').map((l) => l.value))).toContain(SERVICE);
    }
  });

  it("loads an offline run's telemetry files into the stack (they are OTLP/JSON): its tripped runs in Jaeger, its runs in Prometheus", async () => {
    expect(replayExit).toBe(0);
    const replayed = [...tap.traces().values()].filter((t) => t.serviceName === REPLAY_SERVICE);
    expect(replayed.length).toBe(REPLAY_RUNS);
    const tripped = replayed.filter((t) => t.spans.some((s) => s.parentSpanId === '' && s.attributes['footprint.trip.kinds'] !== undefined)).map((t) => t.traceId);
    const found: string[] = [];
    for (const kind of ['ping_pong', 'rejected_cap']) found.push(...(await stack.jaeger.search(REPLAY_SERVICE, { 'footprint.trip.kinds': kind })).map((t) => t.traceID));
    expect(found.sort()).toEqual(tripped.sort());
    const runs = await stack.prometheus.query(`sum(footprint_runs_total{service_name="${REPLAY_SERVICE}"})`);
    expect(runs.map((r) => Number(r.value[1]))).toEqual([REPLAY_RUNS]);
  });

  it("fills every panel for the README's recipe run verbatim (one metric export, at exit), its run count exact", async () => {
    expect(recipe.exitCode).toBe(0);
    const empty: string[] = [];
    for (const q of dashboardQueries().filter((d) => d.where.includes(' panel ') && exercisedByTheLoad(d))) {
      if ((await stack.prometheus.query(forService(q.raw, RECIPE.service))).length === 0) empty.push(`${q.where}: ${q.expr}`);
    }
    expect(empty).toEqual([]);
    const runs = await stack.prometheus.query(panelQuery('agent-runs-overview.json', 'Outcomes (range)', 'A', RECIPE.service));
    expect(runs.reduce((n, r) => n + Number(r.value[1]), 0)).toBe(recipe.summary.runs);
  });
});
