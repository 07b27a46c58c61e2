/**
 * A runner's executor runs its chart without the build-time structure (run/executedChart.ts), so
 * footprintjs keeps no per-run copy of it; the built chart, which compositions mount and checkpoints
 * digest, keeps its own.
 */
import { describe, expect, it } from 'vitest';
import type { FlowChartExecutor } from 'footprintjs';
import { registerInstrument } from '../../../src/runtime/index.js';
import { echoAgent } from '../../support/compositions.js';

describe("a runner's executor", () => {
  it('keeps no runtime copy of the chart structure, and the chart keeps its own', async () => {
    const { agent } = echoAgent('a');
    const executors: FlowChartExecutor[] = [];
    const unregister = registerInstrument({ id: 'test.executor', start: (run) => void executors.push(run.executor) });
    try {
      expect((await agent.run('x')).text).toBe('a(x)');
    } finally {
      unregister();
    }
    expect(executors).toHaveLength(1);
    expect(executors[0]!.getRuntimeStructure()).toBeUndefined();
    expect(agent.chart().buildTimeStructure).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  });
});
