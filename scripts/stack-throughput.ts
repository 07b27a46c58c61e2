// Throughput into the real collector: the demo with full tracing, at rising concurrency, through the
// OTLP tap into the real stack (collector keeping every trace, Jaeger, Prometheus), and whether
// anything was dropped end to end: the app (its export-failure and dropped-span warnings), the
// collector (its own refused / failed-to-send span counters) and Jaeger (every span the app sent is
// stored). Writes bench/results/stack-throughput.txt.
//
//   npx tsx scripts/stack-throughput.ts        (needs scripts/build-backends.sh first)
//
// The demo's traces go out as OTLP/HTTP JSON (src/telemetry/otlp.ts has no protobuf trace exporter),
// its metrics as OTLP/HTTP protobuf; runs/s is runs over the demo process's wall time (Node start
// and the final flush included).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { findBinary, waitFor } from '../test/support/backends.js';
import { runDemo } from '../test/support/stack/clients.js';
import { startOtlpTap, TAP_PROTOCOL_ENV } from '../test/support/stack/otlp-tap.js';
import { startStack } from '../test/support/stack/start-stack.js';
import { hostAddress } from '../test/support/stack/stack.js';
import { repoPath } from '../test/stack/stack-files.js';

const RUNS = 400;
const CONCURRENCY = [1, 4, 8];

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

const stack = await startStack({
  bins: { otelcol: need('otelcol'), jaeger: need('jaeger'), prometheus: need('prometheus'), alertmanager: need('alertmanager') },
  collectorEnv: { FOOTPRINT_SAMPLE_PERCENT: '100' },
});
const tap = await startOtlpTap(() => stack.otlpUrl);
const collectorMetrics = `http://${hostAddress(stack.ports, 'otel-collector', 8888)}/metrics`;
const lines: string[] = [];
try {
  for (const concurrency of CONCURRENCY) {
    const service = `footprint-throughput-c${concurrency}`;
    const started = Date.now();
    const demo = await runDemo({
      args: ['--runs', String(RUNS), '--concurrency', String(concurrency), '--seed', '5'],
      env: { ...TAP_PROTOCOL_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: tap.url, OTEL_SERVICE_NAME: service },
    });
    const seconds = (Date.now() - started) / 1000;
    const sent = [...tap.traces().values()].filter((t) => t.serviceName === service);
    const spansSent = sent.reduce((n, t) => n + t.spans.length, 0);
    // Every trace is decided decision_wait (30 s) after its first span; then Jaeger must hold them all.
    const stored = await waitFor(
      async () => {
        const traces = await stack.jaeger.search(service);
        const spans = traces.reduce((n, t) => n + t.spans.length, 0);
        return spans === spansSent ? spans : Date.now() - started > seconds * 1000 + 60_000 ? spans : undefined;
      },
      { what: `${service} in Jaeger`, timeoutMs: 120_000, intervalMs: 2_000 },
    );
    // stderr also carries the progress bar; the app reports trouble in `warning:` lines.
    const warnings = demo.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    const refused = await collectorCounter(collectorMetrics, 'otelcol_receiver_refused_spans');
    const failed = await collectorCounter(collectorMetrics, 'otelcol_exporter_send_failed_spans');
    const dropped = warnings.length > 0 || refused > 0 || failed > 0 || stored !== spansSent || sent.length !== RUNS;
    lines.push(
      `concurrency ${String(concurrency).padStart(2)}: ${(RUNS / seconds).toFixed(1).padStart(6)} runs/s, ${(spansSent / seconds).toFixed(0).padStart(6)} spans/s ` +
        `(${RUNS} runs, ${spansSent} spans in ${seconds.toFixed(1)} s); app warnings: ${warnings.length === 0 ? 'none' : warnings.join(' | ')}; ` +
        `collector refused ${refused}, failed to send ${failed}; Jaeger stored ${stored} of ${spansSent} spans -> ${dropped ? 'DROPPED' : 'nothing dropped'}`,
    );
    console.log(lines.at(-1));
  }
} finally {
  await tap.close();
  await stack.stop();
}

const report = [
  'Throughput of `footprint-otel demo` into the real stack (scripts/stack-throughput.ts)',
  `date: ${new Date().toISOString()}; machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; node ${process.version}`,
  'stack: otelcol-footprint 0.161.0 (tail sampling at 100%, span metrics), Jaeger 2.13.0 (memory), Prometheus 3.16.0, Alertmanager 0.35.0, all on this machine',
  'app: full stage tracing, traces OTLP/HTTP JSON (the only trace encoding src/telemetry has), metrics OTLP/HTTP protobuf, via the test OTLP tap',
  '',
  ...lines,
  '',
].join('\n');
writeFileSync(repoPath('bench/results/stack-throughput.txt'), report);
console.log(report);
