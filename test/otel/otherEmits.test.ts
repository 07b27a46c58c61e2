/**
 * Emits outside the event catalog (a user's `$emit`) inside a runner run: the run's hub hands them
 * to the tracing instrument (RunHub.subscribeOthers), so they become span events on the emitting
 * stage's span in full detail and on the member's span in semantic detail, and a semantic runner
 * run attaches no footprintjs recorder of its own (footprintjs dispatches each emit once).
 */
import { FlowChartExecutor, flowChart, type FlowChart, type TypedScope } from 'footprintjs';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRACE_RECORDER_ID, tracingInstrument } from '../../src/otel/index.js';
import { quietLogger, registerInstrument, Runner } from '../../src/runtime/index.js';
import { startSdk } from '../support/sdk.js';
import { render } from '../support/traceTree.js';

/** The smallest runner whose stage emits an event of its own: the chart contract's output, and `x.progress`. */
class EmittingRunner extends Runner {
  readonly kind = 'sequence';
  readonly id = 'emitter';
  readonly name = 'emitter';
  protected buildChart(): FlowChart {
    // The chart contract (run/runner.ts): the final stage writes `output` and returns it.
    const work = (scope: TypedScope<{ output?: string }>): string => {
      scope.$emit('x.progress', { step: 1, label: 'half' });
      scope.output = 'done';
      return 'done';
    };
    return flowChart<{ output?: string }>('Work', work as (scope: TypedScope<{ output?: string }>) => void, 'work')
      .setLogger(quietLogger)
      .build();
  }
}

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

function attachedTraceRecorders(run: () => Promise<unknown>): Promise<string[][]> {
  const hooks: string[][] = [];
  const real = FlowChartExecutor.prototype.attachCombinedRecorder;
  const spy = vi.spyOn(FlowChartExecutor.prototype, 'attachCombinedRecorder').mockImplementation(function (this: FlowChartExecutor, recorder, options) {
    if (recorder.id === TRACE_RECORDER_ID) hooks.push(Object.keys(recorder).filter((k) => k.startsWith('on')).sort());
    real.call(this, recorder, options);
  });
  return run().then(
    () => (spy.mockRestore(), hooks),
    (error: unknown) => {
      spy.mockRestore();
      throw error;
    },
  );
}

describe('emits outside the catalog in a runner run', () => {
  it('full detail: a span event on the emitting stage span; the recorder carries the stage hooks only', async () => {
    const hooks = await attachedTraceRecorders(() => new EmittingRunner().run('go'));
    expect(hooks).toEqual([['onStageEnd', 'onStageStart']]);
    expect(render(sdk.spans(), { events: true })).toBe(['invoke_workflow emitter', '  Work <x.progress>'].join('\n'));
    const work = sdk.spans().find((s) => s.name === 'Work')!;
    expect(work.events.map((e) => [e.name, e.attributes])).toEqual([['x.progress', { step: 1, label: 'half' }]]);
  });

  it('semantic detail: a span event on the run span, and no trace recorder attached', async () => {
    const unregister = registerInstrument(tracingInstrument({ tracerProvider: sdk.provider, detail: 'semantic' }));
    try {
      const hooks = await attachedTraceRecorders(() => new EmittingRunner().run('go'));
      expect(hooks).toEqual([]);
    } finally {
      unregister();
    }
    expect(render(sdk.spans(), { events: true })).toBe('invoke_workflow emitter <x.progress>');
    expect(sdk.spans()[0]!.events.map((e) => [e.name, e.attributes])).toEqual([['x.progress', { step: 1, label: 'half' }]]);
  });
});
