/**
 * Throughput and memory, in their own processes (run by bench/run.ts):
 *   paced <receiverUrl>       startTelemetry() exporting to a live receiver at the documented rate
 *                             (BENCH_PACED_RATE runs/s): no span may be lost, and the receiver
 *                             counts what arrived
 *   unpaced <receiverUrl>     32 runs in flight, past what the exporter keeps up with: drops are
 *                             counted, runs never blocked
 *   memory-traced             heap (after GC) every 10% of BENCH_MEMORY_RUNS runs traced in full detail
 *   memory-paused             the same for runs that pause and are never resumed
 *                             (both with the heap's slope after the first 10%: targets.ts heapSlope;
 *                             `npm run bench:heap` runs memory-traced alone)
 * Prints one JSON line.
 */
import type { TelemetryHealth } from '../src/telemetry/index.js';

const [mode = 'paced', receiverUrl = ''] = process.argv.slice(2);

const gc = (globalThis as { gc?: () => void }).gc;

/** Spans dropped at the full queue, and spans lost in failed exports (every other cause). */
const dropped = (health: TelemetryHealth) => health.spans.lost.queue_full ?? 0;
const failedSpans = (health: TelemetryHealth) => Object.values(health.spans.lost).reduce((a, b) => a + b, 0) - dropped(health);
const heapMb = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

if (mode === 'paced' || mode === 'unpaced') {
  const { startTelemetry } = await import('../src/telemetry/index.js');
  // the receiver counts spans in OTLP JSON; http/protobuf is the default
  process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??= 'http/json';
  const telemetry = startTelemetry({ endpoint: receiverUrl, serviceName: 'footprint-bench', handleExit: false, metricExportIntervalMs: 60_000 });
  const { referenceAgent, MESSAGE } = await import('./scenario.js');
  const agent = referenceAgent();
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  let runs = 0;
  const started = performance.now();
  const rate = Number(process.env.BENCH_PACED_RATE ?? 100);
  if (mode === 'paced') {
    // `rate` runs per second for `seconds`.
    const inflight: Promise<unknown>[] = [];
    while (performance.now() - started < seconds * 1000) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate);
      while (runs < due) {
        runs++;
        inflight.push(agent.run(MESSAGE));
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(inflight);
  } else {
    // 32 runs in flight at all times, as fast as the process goes.
    const worker = async () => {
      while (performance.now() - started < seconds * 1000) {
        await agent.run(MESSAGE);
        runs++;
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
  }
  const elapsedSeconds = (performance.now() - started) / 1000;
  await telemetry.forceFlush();
  const health = telemetry.health();
  await telemetry.shutdown();
  process.stdout.write(
    `${JSON.stringify({
      mode,
      rate: mode === 'paced' ? rate : undefined,
      runs,
      runsPerSecond: runs / elapsedSeconds,
      droppedSpans: dropped(health),
      failedExports: failedSpans(health),
    })}\n`,
  );
} else {
  const { context, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { ExportResultCode } = await import('@opentelemetry/core');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor({ export: (_s, done) => done({ code: ExportResultCode.SUCCESS }), shutdown: async () => {} })],
  });
  trace.setGlobalTracerProvider(provider);
  const { referenceAgent, pausingAgent, MESSAGE } = await import('./scenario.js');
  const { registerInstrument, tracingInstrument } = await import('../src/index.js');
  // Traced, in full detail: every run's spans go through the bridge and the SDK's batch.
  registerInstrument(tracingInstrument({ detail: 'full' }));
  const agent = mode === 'memory-paused' ? pausingAgent() : referenceAgent();
  const total = Number(process.env.BENCH_MEMORY_RUNS ?? 100_000);
  const curve: { runs: number; heapMb: number }[] = [{ runs: 0, heapMb: heapMb() }];
  for (let i = 1; i <= total; i++) {
    await agent.run(MESSAGE);
    if (i % 200 === 0) await new Promise((r) => setImmediate(r));
    if (i % (total / 10) === 0) curve.push({ runs: i, heapMb: heapMb() });
  }
  await provider.shutdown();
  const { heapSlope } = await import('./targets.js');
  process.stdout.write(`${JSON.stringify({ mode, gc: gc !== undefined, curve, slopeMbPer10kRuns: heapSlope(curve) })}\n`);
}
