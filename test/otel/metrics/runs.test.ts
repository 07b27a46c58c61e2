/**
 * footprint.runs and footprint.run.duration: one record per top-level run (and per resume) with the
 * runner's kind and id and the outcome — ok, error, paused, stopped_early — and the run-duration
 * buckets. Also: with no MeterProvider anywhere the instrument stays out of runs entirely.
 */
import { InstrumentType } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { Agent, isPaused, LLMCall, scripted, type RunStart } from '../../../src/index.js';
import { METRICS, metricsInstrument, RUN_DURATION_BUCKETS } from '../../../src/otel/metrics/index.js';
import { refundAgent } from '../../fixtures/refundAgent.js';
import { meteredRuns, only } from '../../support/meter.js';

const runsOf = (kind: string, id: string, outcome: string) => ({
  'footprint.runner.kind': kind,
  'footprint.runner.id': id,
  'footprint.run.outcome': outcome,
});

describe('with no MeterProvider registered', () => {
  it('start() returns undefined, so runs carry no metrics session', () => {
    const start = { runner: { kind: 'agent', id: 'x' } } as unknown as RunStart;
    expect(metricsInstrument().start(start)).toBeUndefined();
  });
});

describe('runs', () => {
  const meter = meteredRuns();

  it('counts an answered run as ok and times it in seconds with the run buckets', async () => {
    const provider = scripted({ replies: [{ content: 'hi', delayMs: 60 }] });
    await Agent.create({ provider, model: 'm', id: 'greeter' }).build().run('hello');

    const c = await meter.collect();
    expect(c.metric(METRICS.runs.name)!.descriptor).toMatchObject({ unit: '{run}', type: InstrumentType.COUNTER });
    expect(only(c, METRICS.runs.name, runsOf('agent', 'greeter', 'ok')).value).toBe(1);
    const duration = only(c, METRICS.runDuration.name, runsOf('agent', 'greeter', 'ok'));
    expect(c.metric(METRICS.runDuration.name)!.descriptor).toMatchObject({ unit: 's', type: InstrumentType.HISTOGRAM });
    expect(duration.histogram!.buckets.boundaries).toEqual([...RUN_DURATION_BUCKETS]);
    expect(duration.histogram!.count).toBe(1);
    expect(duration.value).toBeGreaterThanOrEqual(0.059);
    expect(duration.value).toBeLessThan(5);
  });

  it('counts a paused run as paused and its resume as a run of its own', async () => {
    const out = await refundAgent().run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    expect(only(await meter.collect(), METRICS.runs.name, runsOf('agent', 'refunds', 'paused')).value).toBe(1);

    await refundAgent().resume(out.paused.checkpoint, 'yes');
    const c = await meter.collect();
    expect(only(c, METRICS.runs.name, runsOf('agent', 'refunds', 'paused')).value).toBe(1);
    expect(only(c, METRICS.runs.name, runsOf('agent', 'refunds', 'ok')).value).toBe(1);
  });

  it('says stopped_early when the top-level agent turn stopped early', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'noop' }] }] });
    const agent = Agent.create({ provider, model: 'm', id: 'capped', maxIterations: 1 })
      .tool({ name: 'noop', description: 'Does nothing', inputSchema: { type: 'object' }, execute: () => 'ok' })
      .build();
    await agent.run('loop');
    const c = await meter.collect();
    expect(only(c, METRICS.runs.name, { 'footprint.runner.id': 'capped' }).attributes).toEqual(
      runsOf('agent', 'capped', 'stopped_early'),
    );
  });

  it('names the runner kind of non-agent runners', async () => {
    const call = LLMCall.create({ provider: scripted({ replies: ['summary'] }), model: 'm', id: 'summarize' }).build();
    await call.run('text');
    expect(only(await meter.collect(), METRICS.runs.name, runsOf('llm_call', 'summarize', 'ok')).value).toBe(1);
  });
});
