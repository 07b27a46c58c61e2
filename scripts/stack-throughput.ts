// Throughput into the real collector: the demo with full tracing, at rising concurrency, into the
// real stack (collector keeping every trace, Jaeger, Prometheus), once per OTLP trace encoding
// (http/json and http/protobuf), and whether anything was dropped end to end: the app (its own exact
// span account and its warnings), the collector (spans it accepted, refused and failed to send) and
// Jaeger (every span the app exported is stored). Writes bench/results/stack-throughput.txt.
//
//   npx tsx scripts/stack-throughput.ts        (needs scripts/build-backends.sh first)
//
// The http/json runs go through the test OTLP tap, which decodes every span the collector accepted (a
// ledger independent of the app); the tap reads JSON only, so the http/protobuf runs go straight to the
// collector and take the app's own account (`Telemetry: spans N exported, M lost`) as what was sent,
// checked against the collector's accepted-spans counter. Metrics go as OTLP/HTTP protobuf in both.
// runs/s is runs over the demo process's wall time (Node start and the final flush included).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { findBinary, waitFor } from '../test/support/backends.js';
import { runDemo, type DemoRun } from '../test/support/stack/clients.js';
import { startOtlpTap, TAP_PROTOCOL_ENV } from '../test/support/stack/otlp-tap.js';
import { startStack } from '../test/support/stack/start-stack.js';
import { hostAddress } from '../test/support/stack/stack.js';
import { repoPath } from '../test/stack/stack-files.js';

const RUNS = 400;
const CONCURRENCY = [1, 4, 8];
const PROTOCOLS = ['http/json', 'http/protobuf'] as const;

function need(name: 'otelcol' | 'jaeger' | 'prometheus' | 'alertmanager'): string {
  const bin = findBinary(name);
  if (!bin) throw new Error(`${name} not found: run scripts/build-backends.sh first`);
  return bin;
}

/** The collector's own counter, summed over its series (its Prometheus endpoint, :8888 in config.yaml). */
async function collectorCounter(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

const COLLECTOR_COUNTERS = {
  accepted: 'otelcol_receiver_accepted_spans',
  refused: 'otelcol_receiver_refused_spans',
  failed: 'otelcol_exporter_send_failed_spans',
} as const;
type CollectorCounts = Record<keyof typeof COLLECTOR_COUNTERS, number>;

async function collectorCounts(metricsUrl: string): Promise<CollectorCounts> {
  const [accepted, refused, failed] = await Promise.all(Object.values(COLLECTOR_COUNTERS).map((name) => collectorCounter(metricsUrl, name)));
  return { accepted: accepted!, refused: refused!, failed: failed! };
}

/** The demo's own span account, from its `Telemetry: spans N exported, M lost ...` line. */
function appSpanAccount(demo: DemoRun): { exported: number; lost: number } {
  const m = /^Telemetry: spans (\d+) exported, (\d+) lost/m.exec(demo.stdout);
  if (!m) throw new Error(`demo printed no span account:\n${demo.stdout.slice(-2_000)}`);
  return { exported: Number(m[1]), lost: Number(m[2]) };
}

const stack = await startStack({
  bins: { otelcol: need('otelcol'), jaeger: need('jaeger'), prometheus: need('prometheus'), alertmanager: need('alertmanager') },
  collectorEnv: { FOOTPRINT_SAMPLE_PERCENT: '100' },
});
const tap = await startOtlpTap(() => stack.otlpUrl);
const collectorMetrics = `http://${hostAddress(stack.ports, 'otel-collector', 8888)}/metrics`;
const lines: string[] = [];
try {
  for (const protocol of PROTOCOLS) {
    const viaTap = protocol === 'http/json';
    for (const concurrency of CONCURRENCY) {
      const service = `footprint-throughput-${protocol.slice(5)}-c${concurrency}`;
      const before = await collectorCounts(collectorMetrics);
      const started = Date.now();
      const demo = await runDemo({
        args: ['--runs', String(RUNS), '--concurrency', String(concurrency), '--seed', '5'],
        env: viaTap
          ? { ...TAP_PROTOCOL_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: tap.url, OTEL_SERVICE_NAME: service }
          : { OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_EXPORTER_OTLP_ENDPOINT: stack.otlpUrl, OTEL_SERVICE_NAME: service },
      });
      const seconds = (Date.now() - started) / 1000;
      const app = appSpanAccount(demo);
      const tapped = [...tap.traces().values()].filter((t) => t.serviceName === service);
      const spansSent = viaTap ? tapped.reduce((n, t) => n + t.spans.length, 0) : app.exported;
      // Every trace is decided decision_wait (30 s) after its first span; then Jaeger must hold them all.
      const stored = await waitFor(
        async () => {
          const traces = await stack.jaeger.search(service);
          const spans = traces.reduce((n, t) => n + t.spans.length, 0);
          return spans === spansSent ? spans : Date.now() - started > seconds * 1000 + 60_000 ? spans : undefined;
        },
        { what: `${service} in Jaeger`, timeoutMs: 120_000, intervalMs: 2_000 },
      );
      const after = await collectorCounts(collectorMetrics);
      const collector = {
        accepted: after.accepted - before.accepted,
        refused: after.refused - before.refused,
        failed: after.failed - before.failed,
      };
      // stderr also carries the progress bar; the app reports trouble in `warning:` lines.
      const warnings = demo.stderr.split('\n').filter((line) => line.startsWith('warning:'));
      const dropped =
        warnings.length > 0 ||
        app.lost > 0 ||
        app.exported !== spansSent ||
        collector.accepted !== spansSent ||
        collector.refused > 0 ||
        collector.failed > 0 ||
        stored !== spansSent ||
        (viaTap && tapped.length !== RUNS);
      lines.push(
        `${protocol.padEnd(13)} concurrency ${String(concurrency).padStart(2)}: ${(RUNS / seconds).toFixed(1).padStart(6)} runs/s, ${(spansSent / seconds).toFixed(0).padStart(6)} spans/s ` +
          `(${RUNS} runs, ${spansSent} spans in ${seconds.toFixed(1)} s); app exported ${app.exported}, lost ${app.lost}, warnings: ${warnings.length === 0 ? 'none' : warnings.join(' | ')}; ` +
          `collector accepted ${collector.accepted}, refused ${collector.refused}, failed to send ${collector.failed}; Jaeger stored ${stored} of ${spansSent} spans -> ${dropped ? 'DROPPED' : 'nothing dropped'}`,
      );
      console.log(lines.at(-1));
    }
  }
} finally {
  await tap.close();
  await stack.stop();
}

const report = [
  'Throughput of `footprint-otel demo` into the real stack (scripts/stack-throughput.ts)',
  `date: ${new Date().toISOString()}; machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; node ${process.version}`,
  'stack: otelcol-footprint 0.161.0 (tail sampling at 100%, span metrics), Jaeger 2.13.0 (memory), Prometheus 3.16.0, Alertmanager 0.35.0, all on this machine',
  'app: full stage tracing; metrics OTLP/HTTP protobuf; traces per protocol below:',
  '  http/json     through the test OTLP tap (spans sent = the spans the tap decoded from requests the collector accepted)',
  '  http/protobuf straight to the collector (spans sent = the app\'s own account, spans exported)',
  'per run: app = its span account (exported, lost) and warning lines; collector = its own counters over the run',
  '(otelcol_receiver_accepted_spans, otelcol_receiver_refused_spans, otelcol_exporter_send_failed_spans); Jaeger = spans stored',
  '',
  ...lines,
  '',
].join('\n');
writeFileSync(repoPath('bench/results/stack-throughput.txt'), report);
console.log(report);
