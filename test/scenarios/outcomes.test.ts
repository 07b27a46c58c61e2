/**
 * One outcome per top-level run, the same on the run span (footprint.run.outcome), in the runs
 * metric (footprint.runs{footprint.run.outcome}) and in the demo's summary, for every way a run
 * ends: answered, stopped early (an agent's iteration cap, a swarm out of hand-offs), failed,
 * cancelled, paused. A nested member's early stop is the member's, never the run's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, isPaused, registerInstrument, scripted, Sequence, swarm, type Runner } from '../../src/index.js';
import { emptySummary, summarize } from '../../src/cli/summary.js';
import { METRICS, metricsInstrument } from '../../src/otel/metrics/index.js';
import { refundAgent } from '../fixtures/refundAgent.js';
import { echoAgent } from '../support/compositions.js';
import { startMeter, type MeterHarness } from '../support/meter.js';
import { startSdk, type Sdk } from '../support/sdk.js';

let sdk: Sdk;
let meter: MeterHarness;
let unregisterMetrics: () => void;

beforeAll(() => {
  sdk = startSdk();
  meter = startMeter();
  unregisterMetrics = registerInstrument(metricsInstrument());
});
afterEach(() => sdk.reset());
afterAll(async () => {
  unregisterMetrics();
  await meter.shutdown();
  await sdk.shutdown();
});

interface Outcomes {
  span: unknown;
  metric: Record<string, number>;
  summary: Record<string, number>;
}

/** Starts the demo summary on `runner`; returns how to read the outcome from all three places. */
function observe(runner: Runner): () => Promise<Outcomes> {
  const summary = emptySummary();
  const stop = summarize(runner, summary);
  return async () => {
    stop();
    const roots = sdk.spans().filter((s) => s.parentSpanContext === undefined);
    expect(roots).toHaveLength(1);
    const metric: Record<string, number> = {};
    for (const series of (await meter.collect()).series(METRICS.runs.name, { 'footprint.runner.id': runner.id })) {
      metric[String(series.attributes['footprint.run.outcome'])] = series.value;
    }
    return { span: roots[0]!.attributes['footprint.run.outcome'], metric, summary: summary.outcomes };
  };
}

/** Why the run stopped early, as its run span says (footprint.run.stop_reason). */
const runStopReason = () => sdk.spans().find((s) => s.parentSpanContext === undefined)?.attributes['footprint.run.stop_reason'];

/** The same outcome label everywhere, counted once. */
const everywhere = (label: string): Outcomes => ({ span: label, metric: { [label]: 1 }, summary: { [label]: 1 } });

const capped = (id: string) =>
  Agent.create({ provider: scripted({ replies: [{ toolCalls: [{ name: 'noop' }] }] }), model: 'm', id, maxIterations: 1 })
    .tool({ name: 'noop', description: 'Does nothing', inputSchema: { type: 'object' }, execute: () => 'ok' })
    .build();

describe('the run outcome', () => {
  it('is stopped_early in spans and metrics alike when a swarm runs out of hand-offs', async () => {
    const desk = swarm({ id: 'handoff-desk', agents: [{ id: 'a', runner: echoAgent('a').agent }], pick: () => 'a', maxHandoffs: 2 });
    const outcomes = observe(desk);
    await desk.run('x');
    expect(await outcomes()).toEqual(everywhere('stopped_early'));
    expect(runStopReason()).toBe('budget_exhausted');
  });

  it("is the top-level run's, not a nested agent's early stop", async () => {
    const pipeline = Sequence.create({ id: 'nested-stop' }).step('capped', capped('inner')).step('echo', echoAgent('echo').agent).build();
    const outcomes = observe(pipeline);
    await pipeline.run('x');
    expect(await outcomes()).toEqual(everywhere('ok'));
    expect(runStopReason()).toBeUndefined();
  });

  it('is stopped_early when the top-level agent hits its iteration cap', async () => {
    const agent = capped('top-capped');
    const outcomes = observe(agent);
    await agent.run('x');
    expect(await outcomes()).toEqual(everywhere('stopped_early'));
    expect(runStopReason()).toBe('max_iterations');
  });

  it('is ok when the run answered', async () => {
    const { agent } = echoAgent('answers');
    const outcomes = observe(agent);
    await agent.run('x');
    expect(await outcomes()).toEqual(everywhere('ok'));
  });

  it('is error when the run failed', async () => {
    const failing = Agent.create({ provider: scripted({ replies: [{ error: new Error('down') }] }), model: 'm', id: 'fails' }).build();
    const outcomes = observe(failing);
    await expect(failing.run('x')).rejects.toThrow(/down/);
    expect(await outcomes()).toEqual(everywhere('error'));
  });

  it('is cancelled, with error.type cancelled on the run span, when the run was cancelled', async () => {
    const slow = echoAgent('cancelled', { delayMs: 200 }).agent;
    const outcomes = observe(slow);
    await expect(slow.run('x', { signal: AbortSignal.timeout(20) })).rejects.toThrow(/was cancelled/);
    expect(await outcomes()).toEqual(everywhere('cancelled'));
    expect(sdk.spans().find((s) => s.parentSpanContext === undefined)!.attributes['error.type']).toBe('cancelled');
  });

  it('is paused when the run paused', async () => {
    const agent = refundAgent();
    const outcomes = observe(agent);
    const out = await agent.run('Refund INV-7');
    expect(isPaused(out)).toBe(true);
    expect(await outcomes()).toEqual(everywhere('paused'));
  });
});
