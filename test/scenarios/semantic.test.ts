/**
 * Detail 'semantic': only the run, invoke_agent, invoke_workflow, chat and execute_tool spans,
 * derived from typed events, with no flow hooks attached, so footprintjs's narrative stays off. The
 * same failure, pause and resume guarantees hold; FOOTPRINT_OTEL_DETAIL picks the mode too.
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { FlowChartExecutor, flowChart } from 'footprintjs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { now } from '../../src/events/index.js';
import { TRACE_RECORDER_ID, traceExecutor, tracingInstrument } from '../../src/otel/index.js';
import { Agent, isPaused, ProviderError, quietLogger, registerInstrument, scripted } from '../../src/runtime/index.js';
import { activeSpanName, activeSpanProbe, approvalAgent, twoToolAgent, twoToolRunAttributes } from '../support/agents.js';
import { startSdk } from '../support/sdk.js';
import { render, structure } from '../support/traceTree.js';

const sdk = startSdk({ tracing: { detail: 'semantic' } });
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

/** Hands out the executor of the next run (registered after tracing, so its recorder is attached). */
function nextExecutor(): Promise<FlowChartExecutor> {
  return new Promise((resolve) => {
    const stop = registerInstrument({
      id: 'test.executor-spy',
      start: (run) => {
        stop();
        resolve(run.executor);
        return undefined;
      },
    });
  });
}

describe('detail semantic', () => {
  it('keeps only the GenAI spans, with the same attributes', async () => {
    const executor = nextExecutor();
    expect((await twoToolAgent().run('Is invoice 42 paid?')).text).toBe('Invoice 42 is paid.');
    const spans = sdk.spans();
    expect(render(spans, { attrs: ['gen_ai.tool.call.id'] })).toBe(
      [
        'invoke_agent Helper',
        '  chat m1 [CLIENT]',
        '  execute_tool lookup gen_ai.tool.call.id=c1',
        '  execute_tool weather gen_ai.tool.call.id=c2',
        '  chat m1 [CLIENT]',
        '  execute_tool lookup gen_ai.tool.call.id=c3',
        '  chat m1 [CLIENT]',
      ].join('\n'),
    );
    const root = spans.find((s) => s.name === 'invoke_agent Helper')!;
    // The same run span as in full detail: the exact attribute set.
    expect(root.attributes).toEqual(twoToolRunAttributes(spans.filter((s) => s.name === 'chat m1')[2]!));
    expect(root.events.map((e) => e.name)).toContain('footprint.agent.next_step');
    expect(structure(spans).problems).toEqual([]);
    expect(sdk.unended()).toEqual([]);

    // A semantic runner run needs no footprintjs recorder: its emits come through the run hub, and an
    // agent's chart raises no footprintjs emit, so not even the hub's recorder is attached.
    const attached = await executor;
    expect(attached.getFlowRecorders().map((r) => r.id)).toEqual([]);
    expect(attached.getScopeRecorders().map((r) => r.id)).toEqual([]);
    expect(attached.getEmitRecorders().map((r) => r.id)).toEqual([]);
    expect(attached.getNarrativeEntries()).toEqual([]);
  });

  it('fails the chat and run spans when the provider throws', async () => {
    const provider = scripted({ replies: [{ error: new ProviderError({ provider: 'openai', kind: 'http', status: 500, message: 'down' }) }] });
    await expect(Agent.create({ provider, model: 'm1', name: 'Fragile' }).build().run('hi')).rejects.toThrow();
    const spans = sdk.spans();
    expect(render(spans, { attrs: ['error.type'] })).toBe(['invoke_agent Fragile !ERROR error.type=500', '  chat m1 [CLIENT] !ERROR error.type=500'].join('\n'));
    expect(spans.every((s) => s.status.code === SpanStatusCode.ERROR)).toBe(true);
    expect(sdk.unended()).toEqual([]);
  });

  it('pauses and resumes into the same trace', async () => {
    const paused = await approvalAgent().run('Refund order 7');
    if (!isPaused(paused)) throw new Error('expected a pause');
    expect(render(sdk.spans(), { attrs: ['footprint.paused'] })).toBe(
      [
        'invoke_agent Refunds footprint.paused=true',
        '  chat m1 [CLIENT]',
        '  execute_tool lookup',
        '  execute_tool approve footprint.paused=true',
      ].join('\n'),
    );
    const pausedRoot = sdk.spans().find((s) => s.name === 'invoke_agent Refunds')!;
    sdk.reset();
    expect((await approvalAgent().resume(paused.paused.checkpoint, 'yes')).text).toBe('Refund issued.');
    const spans = sdk.spans();
    expect(render(spans)).toBe(['invoke_agent Refunds', '  execute_tool approve', '  chat m1 [CLIENT]'].join('\n'));
    const root = spans.find((s) => s.name === 'invoke_agent Refunds')!;
    expect(root.parentSpanContext?.spanId).toBe(pausedRoot.spanContext().spanId);
    expect(root.spanContext().traceId).toBe(pausedRoot.spanContext().traceId);
    expect(sdk.unended()).toEqual([]);
  });
});

describe('traceExecutor in detail semantic', () => {
  it('gives a plain chart just its run span, with the chart emits as events', async () => {
    const chart = flowChart<{ n?: number }>('One', (scope) => {
      scope.n = 1;
      scope.$emit('x.progress', { step: 1 });
    }, 'one')
      .addFunction('Two', () => {}, 'two')
      .setLogger(quietLogger)
      .build();
    const executor = traceExecutor(new FlowChartExecutor(chart), { name: 'plain', detail: 'semantic' });
    await executor.run();
    expect(render(sdk.spans(), { events: true })).toBe('run plain <x.progress>');
    expect(sdk.spans()[0].events[0].attributes).toEqual({ step: 1 });
    expect(executor.getFlowRecorders().map((r) => r.id)).not.toContain(TRACE_RECORDER_ID);
  });
});

describe('activation in detail semantic', () => {
  it('makes chat and tool spans active for the provider and the tool, and leaks nothing', async () => {
    const active = activeSpanName;
    const seen: string[] = [];
    const agent = activeSpanProbe(seen);
    await trace.getTracer('test').startActiveSpan('caller', async (caller) => {
      await agent.run('hi');
      seen.push(`caller: ${active()}`);
      caller.end(now());
    });
    expect(seen).toEqual(['provider: chat m1', 'tool: execute_tool probe', 'tool after await: execute_tool probe', 'provider: chat m1', 'caller: caller']);
    expect(render(sdk.spans()).split('\n').slice(0, 2)).toEqual(['caller', '  invoke_agent Probe']);
  });
});

describe('FOOTPRINT_OTEL_DETAIL', () => {
  it('chooses the detail when the options do not, read once when the instrument is made', async () => {
    const previous = process.env.FOOTPRINT_OTEL_DETAIL;
    try {
      process.env.FOOTPRINT_OTEL_DETAIL = 'SEMANTIC';
      const restore = registerInstrument(tracingInstrument());
      process.env.FOOTPRINT_OTEL_DETAIL = 'full';
      await twoToolAgent().run('q');
      expect(sdk.spans().some((s) => s.name === 'Context')).toBe(false);
      sdk.reset();
      restore();
      registerInstrument(tracingInstrument());
      await twoToolAgent().run('q');
      expect(sdk.spans().some((s) => s.name === 'Context')).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.FOOTPRINT_OTEL_DETAIL;
      else process.env.FOOTPRINT_OTEL_DETAIL = previous;
      registerInstrument(tracingInstrument({ detail: 'semantic' }));
    }
  });
});
