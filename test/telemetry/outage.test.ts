/**
 * A collector outage with real traced agent runs: while the receiver on 127.0.0.1 is down, thousands
 * of runs keep going, heap growth stays bounded (the span queue is bounded, failed batches are let
 * go), and both failed exports and dropped spans are counted; when the receiver comes back on the
 * same port, traces and metrics flow again without a restart.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, registerInstrument, type LLMProvider } from '../../src/index.js';
import { tracingInstrument } from '../../src/otel/index.js';
import { metricsInstrument } from '../../src/otel/metrics/index.js';
import { startTelemetry, totalLost, type TelemetryHandle } from '../../src/telemetry/index.js';
import { startReceiver, type Receiver } from './receiver.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A provider that keeps nothing per call, so the heap measures telemetry, not the test's model. */
const provider: LLMProvider = {
  name: 'steady',
  complete: async (request) => {
    const toolResult = request.messages.some((m) => m.role === 'tool');
    return toolResult
      ? { content: 'done', toolCalls: [], usage: { input: 20, output: 3 }, stopReason: 'end_turn' }
      : { content: '', toolCalls: [{ id: 't1', name: 'look', args: {} }], usage: { input: 12, output: 4 }, stopReason: 'tool_use' };
  },
};
const agent = Agent.create({ provider, model: 'm-small', id: 'steady' })
  .tool({ name: 'look', description: 'Look', inputSchema: { type: 'object' }, execute: () => 'seen' })
  .build();

/**
 * The spans of one run: the run span; a first iteration of Context, CallLLM, its chat span,
 * ToolCalls and the tool's span; a second of CallLLM, its chat span and Final.
 */
const SPANS_PER_RUN = 1 + 5 + 3;

async function runs(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await agent.run(`question ${i}`);
}

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

let receiver: Receiver;
let telemetry: TelemetryHandle;
const unregister: (() => void)[] = [];

beforeAll(async () => {
  vi.stubEnv('OTEL_BSP_MAX_QUEUE_SIZE', '256');
  vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '50');
  receiver = await startReceiver();
  unregister.push(registerInstrument(tracingInstrument()), registerInstrument(metricsInstrument()));
  telemetry = startTelemetry({ endpoint: receiver.url, exportTimeoutMs: 300, metricExportIntervalMs: 250, handleExit: false });
});
afterAll(async () => {
  await telemetry.shutdown();
  for (const undo of unregister) undo();
  await receiver.stop();
  vi.unstubAllEnvs();
});

describe('a collector outage', () => {
  it('exports while the collector is up', async () => {
    await runs(20);
    await telemetry.forceFlush();
    expect(new Set(receiver.received.map((r) => r.path))).toEqual(new Set(['/v1/traces', '/v1/metrics']));
    expect(telemetry.health().spans.exported).toBe(20 * SPANS_PER_RUN);
    expect(telemetry.health().spans.lost).toEqual({});
    expect(telemetry.health().metricPoints.lost).toEqual({});
  });

  it('keeps memory bounded and counts failures and drops while it is down', async () => {
    await receiver.stop();
    await runs(200);
    const before = heapMb();
    const started = Date.now();
    await runs(4000);
    // let the periodic metric export and the span exports fail a few times
    await new Promise((resolve) => setTimeout(resolve, 600));
    const grown = heapMb() - before;

    const health = telemetry.health();
    // spans are lost at the full queue and in failed exports (refused, reset, timed out), data points in failed exports
    expect(health.spans.lost.queue_full).toBeGreaterThan(1000);
    expect(totalLost(health.spans) - health.spans.lost.queue_full!).toBeGreaterThan(0);
    expect(Object.keys(health.spans.lost).every((cause) => ['queue_full', 'refused', 'network', 'timeout'].includes(cause))).toBe(true);
    expect(totalLost(health.metricPoints)).toBeGreaterThan(0);
    // ~20 spans a run: with an unbounded queue the same runs leave about 20 MB of spans behind
    expect(grown).toBeLessThan(8);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it('exports again once the collector is back on the same port', async () => {
    const lostWhileDown = totalLost(telemetry.health().spans) - (telemetry.health().spans.lost.queue_full ?? 0);
    await receiver.restart();
    receiver.received.length = 0;
    await runs(5);
    await telemetry.forceFlush();
    expect(new Set(receiver.received.map((r) => r.path))).toEqual(new Set(['/v1/traces', '/v1/metrics']));
    const bytes = Buffer.concat(receiver.of('/v1/metrics').map((m) => m.body)).toString('latin1');
    expect(bytes).toContain('otel.sdk.processor.span.processed');
    expect(bytes).toContain('queue_full');
    await runs(5);
    await telemetry.forceFlush();
    const lostNow = totalLost(telemetry.health().spans) - (telemetry.health().spans.lost.queue_full ?? 0);
    // at most the one export under way when the collector came back failed after it (≤ the 256-span queue)
    expect(lostNow - lostWhileDown).toBeLessThanOrEqual(256);
  });
});
