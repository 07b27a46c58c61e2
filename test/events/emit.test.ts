/**
 * emit() outside a runner run: a chart on a bare footprintjs executor has no run hub, so its typed
 * events take footprintjs's emit channel, where that executor's recorders hear them with the stage's id.
 */
import { FlowChartExecutor, flowChart, type EmitEvent } from 'footprintjs';
import { describe, expect, it } from 'vitest';
import { emit } from '../../src/events/index.js';

describe('emit() on a bare executor', () => {
  it("goes through footprintjs's emit channel, stamped with the stage", async () => {
    const chart = flowChart<{ done?: boolean }>('Pass', (scope) => {
      emit(scope, 'footprint.composition.iteration', { compositionId: 'loop', iteration: 2 });
      scope.done = true;
    }, 'pass').build();
    const executor = new FlowChartExecutor(chart);
    const heard: Pick<EmitEvent, 'name' | 'payload' | 'runtimeStageId' | 'subflowPath'>[] = [];
    executor.attachEmitRecorder({ id: 'test.emits', onEmit: ({ name, payload, runtimeStageId, subflowPath }) => void heard.push({ name, payload, runtimeStageId, subflowPath }) });
    await executor.run();
    expect(heard).toEqual([{ name: 'footprint.composition.iteration', payload: { compositionId: 'loop', iteration: 2 }, runtimeStageId: 'pass#0', subflowPath: [] }]);
  });
});
