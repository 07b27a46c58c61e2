/**
 * Off means off: with no OTel SDK registered, the tracing instrument stays out of the run (no
 * recorder attached, no stage listener, no spans, the run works) and so does traceExecutor; the positive controls run
 * the same checks with a provider and see the recorder and the run's spans. With a TracerProvider
 * passed in explicitly but no context manager registered, tracing still builds the right tree from
 * explicit parents; only activation (the active span inside bodies) is unavailable.
 */
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { FlowChartExecutor, flowChart } from 'footprintjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACE_RECORDER_ID, traceExecutor, tracingInstrument } from '../../src/otel/index.js';
import { EventHub, quietLogger, registerInstrument } from '../../src/runtime/index.js';
import { TURN_UP_TO_CHAT, twoToolAgent } from '../support/agents.js';
import { render } from '../support/traceTree.js';

afterEach(() => vi.restoreAllMocks());

function attachedIds(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls.map(([recorder]) => (recorder as { id: string }).id);
}

describe('with no OTel SDK registered', () => {
  it("neither attaches a recorder to a runner run nor hears its stages (a run's stages then name no execution), and the run works", async () => {
    const attach = vi.spyOn(FlowChartExecutor.prototype, 'attachCombinedRecorder');
    const stages = vi.spyOn(EventHub.prototype, 'subscribeStages');
    const unregister = registerInstrument(tracingInstrument());
    try {
      expect((await twoToolAgent().run('Is invoice 42 paid?')).text).toBe('Invoice 42 is paid.');
      expect(attachedIds(attach)).not.toContain(TRACE_RECORDER_ID);
      expect(stages).not.toHaveBeenCalled();
    } finally {
      unregister();
    }
  });

  it("(positive control) the same run with an SDK provider hears the run's stages from its hub and produces the spans", async () => {
    const attach = vi.spyOn(FlowChartExecutor.prototype, 'attachCombinedRecorder');
    const stages = vi.spyOn(EventHub.prototype, 'subscribeStages');
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const unregister = registerInstrument(tracingInstrument({ tracerProvider: provider }));
    try {
      expect((await twoToolAgent().run('Is invoice 42 paid?')).text).toBe('Invoice 42 is paid.');
      // The runtime's own charts report their stages: the hub, not a footprintjs recorder (test/scenarios/agent.test.ts).
      expect([attachedIds(attach).filter((id) => id === TRACE_RECORDER_ID), stages.mock.calls.length]).toEqual([[], 1]);
      const tree = render(exporter.getFinishedSpans()).split('\n');
      expect([tree[0], tree.length]).toEqual(['invoke_agent Helper', 14]);
    } finally {
      unregister();
      await provider.shutdown();
    }
  });

  it('leaves a traceExecutor run untraced', async () => {
    const attach = vi.spyOn(FlowChartExecutor.prototype, 'attachCombinedRecorder');
    const chart = flowChart<{ x?: number }>('One', (scope) => {
      scope.x = 1;
    }, 'one')
      .setLogger(quietLogger)
      .build();
    const executor = traceExecutor(new FlowChartExecutor(chart));
    await executor.run();
    expect(attachedIds(attach)).not.toContain(TRACE_RECORDER_ID);
    expect(executor.getScopeRecorders().map((r) => r.id)).not.toContain(TRACE_RECORDER_ID);

    // Positive control: given a provider, the same executor wrapper attaches the recorder and the run has its spans.
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const traced = traceExecutor(new FlowChartExecutor(chart), { tracerProvider: provider });
    await traced.run();
    expect(attachedIds(attach).filter((id) => id === TRACE_RECORDER_ID)).toEqual([TRACE_RECORDER_ID]);
    expect(render(exporter.getFinishedSpans())).toBe(['run flowchart', '  One'].join('\n'));
    await provider.shutdown();
  });
});

describe('with an explicit TracerProvider and no context manager', () => {
  it('still builds the tree from explicit parents', async () => {
    expect(trace.getActiveSpan()).toBeUndefined();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const unregister = registerInstrument(tracingInstrument({ tracerProvider: provider }));
    try {
      await twoToolAgent().run('q');
    } finally {
      unregister();
    }
    const tree = render(exporter.getFinishedSpans()).split('\n');
    expect(tree.slice(0, 6)).toEqual([
      'invoke_agent Helper',
      '  Context',
      ...TURN_UP_TO_CHAT,
      '  ToolCalls',
      '    execute_tool lookup',
    ]);
    expect(tree).toHaveLength(14);
    expect(tree.at(-1)).toBe('  Final');
    await provider.shutdown();
  });
});
