/**
 * What a runner attaches to its executor, and when its next run takes the same one (run/runner.ts,
 * run/chart.ts runtimeChart): the runtime's own charts raise their events through the run hub, so
 * a run of them attaches no footprintjs recorder; a chart written for a Runner of one's own may $emit,
 * so a tree with one gets the hub's emit recorder. An executor to which nothing was attached (no
 * instrument took part, no recorder) serves the runner's next fresh run; a resumed run, a run an
 * instrument takes part in and a concurrent run each have an executor of their own.
 */
import type { FlowChartExecutor } from 'footprintjs';
import { afterEach, describe, expect, it } from 'vitest';
import { isPaused, registerInstrument, Sequence, type RunSession } from '../../../src/runtime/index.js';
import { approvalAgent, echoAgent } from '../../support/compositions.js';
import { Reporter } from '../../support/reporter.js';


let undo: (() => void)[] = [];
afterEach(() => {
  for (const stop of undo) stop();
  undo = [];
});

/** The executor of every run from now on, seen by an instrument that takes part when `session` is given and stays out otherwise. */
function executorsOfRuns(session?: RunSession): FlowChartExecutor[] {
  const seen: FlowChartExecutor[] = [];
  undo.push(registerInstrument({ id: 'test.executors', start: (run) => (seen.push(run.executor), session) }));
  return seen;
}

function recorderIds(executor: FlowChartExecutor): { flow: string[]; scope: string[]; emit: string[] } {
  return {
    flow: executor.getFlowRecorders().map((r) => r.id),
    scope: executor.getScopeRecorders().map((r) => r.id),
    emit: executor.getEmitRecorders().map((r) => r.id),
  };
}

describe("a runner's executor", () => {
  it('of charts that raise no footprintjs emit has nothing attached, and serves the next run', async () => {
    const { agent } = echoAgent('a');
    const seen = executorsOfRuns();
    expect((await agent.run('x')).text).toBe('a(x)');
    expect((await agent.run('y')).text).toBe('a(y)');
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    expect(recorderIds(seen[0]!)).toEqual({ flow: [], scope: [], emit: [] });
  });

  it('of a composition of the runtime serves its next run too', async () => {
    const pipeline = Sequence.create({ id: 'pipe' }).step('draft', echoAgent('writer').agent).step('edit', echoAgent('editor').agent).build();
    const seen = executorsOfRuns();
    expect((await pipeline.run('x')).text).toBe('editor(writer(x))');
    expect((await pipeline.run('y')).text).toBe('editor(writer(y))');
    expect(seen[1]).toBe(seen[0]);
    expect(recorderIds(seen[0]!)).toEqual({ flow: [], scope: [], emit: [] });
  });

  it('is its run\'s own when an instrument takes part', async () => {
    const { agent } = echoAgent('a');
    const seen = executorsOfRuns({});
    expect((await agent.run('x')).text).toBe('a(x)');
    expect((await agent.run('y')).text).toBe('a(y)');
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
  });

  it("gets the hub's emit recorder when a chart of the tree is a runner's of one's own, and its emits reach the instruments", async () => {
    const pipeline = Sequence.create({ id: 'pipe' }).step('draft', echoAgent('writer').agent).step('report', new Reporter()).build();
    const seen = executorsOfRuns();
    expect((await pipeline.run('x')).text).toBe('done');
    expect((await pipeline.run('y')).text).toBe('done');
    expect(seen[1]).not.toBe(seen[0]);
    expect(recorderIds(seen[0]!)).toEqual({ flow: [], scope: ['footprint-otel.events'], emit: ['footprint-otel.events'] });

    const heard: { name: string; payload: unknown }[] = [];
    undo.push(
      registerInstrument({
        id: 'test.others',
        start: (run) => {
          const stop = run.events.subscribeOthers((event) => heard.push({ name: event.name, payload: event.payload }));
          return { finished: stop };
        },
      }),
    );
    expect((await pipeline.run('z')).text).toBe('done');
    expect(heard).toEqual([
      { name: 'x.progress', payload: { step: 1, of: { total: 2 } } },
      { name: 'x.progress', payload: { step: 2 } },
    ]);
  });

  it('is its own for each of two concurrent runs', async () => {
    const { agent } = echoAgent('slow', { delayMs: 20 });
    const seen = executorsOfRuns();
    const texts = await Promise.all([agent.run('x'), agent.run('y')]);
    expect(texts.map((r) => r.text)).toEqual(['slow(x)', 'slow(y)']);
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
  });

  it('of a paused run serves a later fresh run, never its resume', async () => {
    const { agent } = approvalAgent('approver');
    const seen = executorsOfRuns();
    const paused = await agent.run('pay');
    if (!isPaused(paused)) throw new Error('expected a pause');
    expect(paused.stopReason).toBe('paused');
    expect((await agent.resume(paused.paused.checkpoint, 'yes')).text).toBe('approved: human said yes');
    const again = await agent.run('pay again');
    expect(again.stopReason).toBe('paused');
    expect(seen).toHaveLength(3);
    expect(seen[1]).not.toBe(seen[0]);
    expect(seen[2]).toBe(seen[0]);
  });
});
