/**
 * Cancelling a run while a tool runs is a cancellation, not a tool failure: the tool call ends
 * `cancelled` (tool_end, its execute_tool span), the agent and the run end cancelled (spans, the runs
 * metric), the model never gets a "Tool failed" text, and the whole trace holds one exception event,
 * on the stage that stopped. Recorded with the real OTel SDK, content capture on.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Agent, registerInstrument, RunCancelledError, scripted, Sequence, type Runner, type ScriptedReply } from '../../src/index.js';
import { METRICS, metricsInstrument } from '../../src/otel/metrics/index.js';
import { collect } from '../fixtures/collect.js';
import { startMeter, type MeterHarness } from '../support/meter.js';
import { startSdk, type Sdk } from '../support/sdk.js';

let sdk: Sdk;
let meter: MeterHarness;
let unregisterMetrics: () => void;
beforeAll(() => {
  vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'span_only');
  sdk = startSdk();
  meter = startMeter();
  unregisterMetrics = registerInstrument(metricsInstrument());
});
beforeEach(() => sdk.reset());
afterAll(async () => {
  vi.unstubAllEnvs();
  unregisterMetrics();
  await meter.shutdown();
  await sdk.shutdown();
});

/**
 * An agent whose model asks for `waits` (which honours ctx.signal) and `quick` in one reply, then
 * answers. `started` resolves once `waits` runs, so the test aborts during the call.
 */
function waitingAgent(id: string) {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let markQuickDone!: () => void;
  const quickDone = new Promise<void>((resolve) => (markQuickDone = resolve));
  const provider = scripted({
    name: 'openai',
    replies: (request): ScriptedReply =>
      request.messages.some((m) => m.role === 'tool')
        ? 'answered'
        : { toolCalls: [{ id: 'w1', name: 'waits', args: {} }, { id: 'q1', name: 'quick', args: {} }] },
  });
  const agent = Agent.create({ provider, model: 'm-cancel', id, name: 'Canceller' })
    .tool({
      name: 'waits',
      description: 'Waits until cancelled',
      inputSchema: { type: 'object' },
      execute: (_args, ctx) => {
        markStarted();
        return untilCancelled(ctx.signal);
      },
    })
    .tool({
      name: 'quick',
      description: 'Answers at once',
      inputSchema: { type: 'object' },
      execute: () => {
        markQuickDone();
        return 'quick result';
      },
    })
    .build();
  // Once `waits` runs, and `quick` (asked for in the same reply; each call's arguments are checked
  // on the schema worker, so either may start first) has returned and had its turn to finish.
  const running = Promise.all([started, quickDone]).then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  return { agent, provider, started: running };
}

const exceptionEvents = (spans: readonly ReadableSpan[]) =>
  spans.flatMap((span) => span.events.filter((e) => e.name === 'exception').map(() => span.name));

const failureOf = (span: ReadableSpan | undefined) => [span?.status.code, span?.attributes['error.type']];

/** Runs `runner` on 'go', aborts the run once `started` resolves, and expects it to end cancelled. */
async function cancelOnceStarted(runner: Runner, started: Promise<void>): Promise<void> {
  const controller = new AbortController();
  const run = runner.run('go', { signal: controller.signal });
  await started;
  controller.abort(new Error('user abort'));
  await expect(run).rejects.toBeInstanceOf(RunCancelledError);
}

/** What a tool that honours ctx.signal returns: a promise rejected with the abort reason. */
const untilCancelled = (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

async function runsMetric(runnerId: string): Promise<Record<string, number>> {
  const metric: Record<string, number> = {};
  for (const series of (await meter.collect()).series(METRICS.runs.name, { 'footprint.runner.id': runnerId })) {
    metric[String(series.attributes['footprint.run.outcome'])] = series.value;
  }
  return metric;
}

describe('a run cancelled during a tool call', () => {
  it('ends the tool, the agent and the run cancelled, with one exception event, and no tool text for the model', async () => {
    const { agent, provider, started } = waitingAgent('cancel-top');
    const seen = collect(agent);
    await cancelOnceStarted(agent, started);

    expect(seen.of('footprint.call.tool_end').map((e) => [e.toolName, e.status, e.error])).toEqual([
      ['quick', 'ok', undefined],
      ['waits', 'cancelled', { type: 'cancelled', message: 'the run was cancelled' }],
    ]);
    expect(seen.of('footprint.run.failed').map((e) => [e.stage, e.error.type])).toEqual([['tool-calls', 'cancelled']]);
    // The model was asked once; no "Tool failed" text was ever sent.
    expect(provider.calls).toHaveLength(1);

    const spans = sdk.spans();
    const tool = spans.find((s) => s.name === 'execute_tool waits')!;
    expect(failureOf(tool)).toEqual([SpanStatusCode.ERROR, 'cancelled']);
    expect(tool.attributes['footprint.tool.status']).toBe('cancelled');
    expect(tool.attributes['gen_ai.tool.call.result']).toBeUndefined();
    const root = spans.find((s) => s.parentSpanContext === undefined)!;
    expect(failureOf(root)).toEqual([SpanStatusCode.ERROR, 'cancelled']);
    expect(root.attributes['footprint.run.outcome']).toBe('cancelled');
    expect(exceptionEvents(spans)).toEqual(['ToolCalls']);
    expect(failureOf(spans.find((s) => s.name === 'ToolCalls'))).toEqual([SpanStatusCode.ERROR, 'cancelled']);
    expect(await runsMetric('cancel-top')).toEqual({ cancelled: 1 });
  });

  it('inside a composition: the agent member span is cancelled too, still one exception event', async () => {
    const { agent, started } = waitingAgent('cancel-inner');
    const pipeline = Sequence.create({ id: 'cancel-pipeline' }).step('inner', agent).build();
    await cancelOnceStarted(pipeline, started);

    const spans = sdk.spans();
    expect(failureOf(spans.find((s) => s.name === 'invoke_agent Canceller'))).toEqual([SpanStatusCode.ERROR, 'cancelled']);
    expect(failureOf(spans.find((s) => s.parentSpanContext === undefined))).toEqual([SpanStatusCode.ERROR, 'cancelled']);
    expect(exceptionEvents(spans)).toEqual(['ToolCalls']);
    expect(await runsMetric('cancel-pipeline')).toEqual({ cancelled: 1 });
  });

  it('calls still waiting for a slot never start', async () => {
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const provider = scripted({ replies: [{ toolCalls: ['a', 'b', 'c'].map((id) => ({ id, name: 'slow', args: {} })) }, 'never reached'] });
    let runs = 0;
    const agent = Agent.create({ provider, model: 'm', id: 'cancel-queue', toolConcurrency: 1 })
      .tool({
        name: 'slow',
        description: 'Waits until cancelled',
        inputSchema: { type: 'object' },
        execute: (_args, ctx) => {
          runs++;
          markStarted();
          return untilCancelled(ctx.signal);
        },
      })
      .build();
    const seen = collect(agent);
    await cancelOnceStarted(agent, started);
    expect(runs).toBe(1);
    expect(seen.of('footprint.call.tool_start').map((e) => e.toolCallId)).toEqual(['a']);
    expect(seen.of('footprint.call.tool_end').map((e) => [e.toolCallId, e.status])).toEqual([['a', 'cancelled']]);
    expect(exceptionEvents(sdk.spans())).toEqual(['ToolCalls']);
  });

  it('a tool that ignores the signal is cut short the same way', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ id: 'h1', name: 'hangs', args: {} }] }, 'never reached'] });
    let calls = 0;
    const agent = Agent.create({ provider, model: 'm', id: 'cancel-hang', name: 'Hanger' })
      .tool({ name: 'hangs', description: 'Never settles', inputSchema: { type: 'object' }, execute: () => (calls++, new Promise(() => {})) })
      .build();
    const seen = collect(agent);
    await expect(agent.run('go', { signal: AbortSignal.timeout(50) })).rejects.toBeInstanceOf(RunCancelledError);
    expect(calls).toBe(1);
    expect(seen.of('footprint.call.tool_end').map((e) => e.status)).toEqual(['cancelled']);
    expect(exceptionEvents(sdk.spans())).toEqual(['ToolCalls']);
  });
});
