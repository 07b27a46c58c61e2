// A burst with the real collector and Jaeger: many traces that arrive within a second are decided by
// the tail sampler in the same tick and handed to the Jaeger exporter at once. Its batch must stay
// under the gRPC message limit of Jaeger's OTLP receiver (gRPC's default 4 MiB, after
// decompression): a bigger batch is refused with ResourceExhausted, which the exporter does not
// retry, and every trace in it is lost. That is what happened after a collector restart, when the
// app's backlog arrives at once (real-stack-faults.test.ts). The burst here is synthetic and sized
// so that any tick's release is well over the limit.
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { describeWithBackends, waitFor } from '../support/backends.js';
import { stackReport } from '../support/stack/diagnostics.js';
import { startStack, type RunningStack } from '../support/stack/start-stack.js';
import { durationSeconds, loadYaml, PATHS } from './stack-files.js';

const SERVICE = 'footprint-stack-burst';
const TRACES = 480;
const SPANS_PER_TRACE = 25;
/** About 1 KiB per span: 12,000 spans are about 12 MiB, three times the limit even if split over two ticks. */
const PAYLOAD = 'x'.repeat(900);
const REQUESTS = 12;
const DECISION_WAIT_MS = durationSeconds(loadYaml(PATHS.collector).processors.tail_sampling.decision_wait) * 1000;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const traceIdOf = (t: number) => `b0${hex(t, 30)}`;

/** One OTLP/JSON request holding traces [from, to): each a root span with SPANS_PER_TRACE - 1 children. */
function burstRequest(from: number, to: number, nowNs: bigint) {
  const spans = [];
  for (let t = from; t < to; t++) {
    for (let s = 0; s < SPANS_PER_TRACE; s++) {
      spans.push({
        traceId: traceIdOf(t),
        spanId: hex(t * SPANS_PER_TRACE + s + 1, 16),
        parentSpanId: s === 0 ? '' : hex(t * SPANS_PER_TRACE + 1, 16),
        name: s === 0 ? 'invoke_agent burst' : `chat burst-${s}`,
        kind: 1,
        startTimeUnixNano: String(nowNs - 1_000_000_000n + BigInt(s) * 1_000_000n),
        endTimeUnixNano: String(nowNs - 500_000_000n + BigInt(s) * 1_000_000n),
        attributes: [
          { key: 'gen_ai.operation.name', value: { stringValue: s === 0 ? 'invoke_agent' : 'chat' } },
          { key: 'footprint.test.payload', value: { stringValue: PAYLOAD } },
        ],
      });
    }
  }
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: SERVICE } }] },
        scopeSpans: [{ scope: { name: 'footprint-stack-burst' }, spans }],
      },
    ],
  };
}

describeWithBackends('a burst of traces bigger than Jaeger\'s gRPC message limit', ['otelcol', 'jaeger', 'prometheus', 'alertmanager'], (bins) => {
  let stack: RunningStack;
  let sentAt = 0;

  beforeAll(async () => {
    stack = await startStack({
      bins: { otelcol: bins.otelcol, jaeger: bins.jaeger, prometheus: bins.prometheus, alertmanager: bins.alertmanager },
      collectorEnv: { FOOTPRINT_SAMPLE_PERCENT: '100' },
    });
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const perRequest = TRACES / REQUESTS;
    // Built first, sent together: the whole burst lands in one or two of the sampler's one-second batches.
    const bodies = Array.from({ length: REQUESTS }, (_, r) => JSON.stringify(burstRequest(r * perRequest, (r + 1) * perRequest, nowNs)));
    const answers = await Promise.all(
      bodies.map((body) =>
        fetch(`${stack.otlpUrl}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(30_000) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    sentAt = Date.now();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('reaches Jaeger whole: every trace with every span', async () => {
    onTestFailed(async () => {
      const programs = [
        { label: 'otel-collector', service: 'otel-collector' as const, program: stack.programs['otel-collector'] },
        { label: 'jaeger', service: 'jaeger' as const, program: stack.programs.jaeger },
      ];
      console.error(await stackReport(stack.ports, programs));
    });
    const missing = async () => {
      const inJaeger = new Map((await stack.jaeger.search(SERVICE)).map((t) => [t.traceID, t.spans.length]));
      const gaps = Array.from({ length: TRACES }, (_, t) => traceIdOf(t)).filter((id) => inJaeger.get(id) !== SPANS_PER_TRACE);
      return { traces: inJaeger.size, gaps: gaps.map((id) => `${id}: ${inJaeger.get(id) ?? 0} of ${SPANS_PER_TRACE} spans`) };
    };
    // Decided one decision wait after arrival; a refused batch is never retried, so it never arrives.
    await new Promise((r) => setTimeout(r, Math.max(0, sentAt + DECISION_WAIT_MS - Date.now())));
    await waitFor(async () => (await missing()).gaps.length === 0, { timeoutMs: 60_000, intervalMs: 2_000, what: 'the burst in Jaeger' }).catch(() => undefined);
    expect(await missing()).toEqual({ traces: TRACES, gaps: [] });
  }, 150_000);
});
