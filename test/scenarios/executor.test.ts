/**
 * traceExecutor on plain footprintjs charts (no runtime): deciders, selectors, forks, nested
 * subflows, loops, retries, a parallel fan-out, a failing fork child, a failing subflow, and a pause
 * inside a subflow resumed on the same executor. The tree must be exact, each stage span active for
 * its own body, and the caller's context untouched.
 */
import { trace } from '@opentelemetry/api';
import { decide, FlowChartExecutor, flowChart, interrupt, select } from 'footprintjs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { now } from '../../src/events/index.js';
import { traceExecutor } from '../../src/otel/index.js';
import { quietLogger } from '../../src/runtime/index.js';
import { startSdk } from '../support/sdk.js';
import { render, structure, toMs } from '../support/traceTree.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const activeName = () => (trace.getActiveSpan() as unknown as { name?: string } | undefined)?.name ?? '(none)';

interface State {
  n: number;
  seen: string[];
}

function demoChart(seen: string[]) {
  const note = (label: string): void => {
    seen.push(`${label}: ${activeName()}`);
  };
  const deep = flowChart<State>('DeepStage', () => note('DeepStage'), 'deep-stage').build();
  const inner = flowChart<State>('InnerA', () => note('InnerA'), 'inner-a')
    .addSubFlowChartNext('sf-deep', deep, 'Deep')
    .addFunction('InnerB', async () => {
      await sleep(1);
      note('InnerB after await');
    }, 'inner-b')
    .build();
  return flowChart<State>('Seed', async (scope) => {
    scope.n = 0;
    scope.$emit('x.seed', { ready: true });
    await sleep(2);
    note('Seed after await');
  }, 'seed')
    .addSelectorFunction('Pick', (scope) => select(scope, [{ when: () => true, then: 'a', label: 'always a' }, { when: () => true, then: 'b', label: 'always b' }]), 'pick')
    .addFunctionBranch('a', 'SelA', async () => {
      note('SelA');
      await sleep(4);
    })
    .addFunctionBranch('b', 'SelB', async () => {
      note('SelB');
      await sleep(1);
    })
    .end()
    .addFunction('ForkParent', () => {}, 'fork-parent')
    .addListOfFunction([
      { id: 'p1', name: 'P1', fn: async () => { await sleep(3); note('P1 after await'); } },
      { id: 'p2', name: 'P2', fn: async () => { await sleep(1); note('P2 after await'); } },
    ])
    .addFunction('AfterFork', () => {}, 'after-fork')
    .addSubFlowChartNext('sf-inner', inner, 'Inner')
    .addFunction('Body', (scope) => {
      scope.n = scope.n + 1;
    }, 'body')
    .addDeciderFunction('Route', (scope) => decide(scope, [{ when: { n: { lt: 3 } }, then: 'again', label: 'more to do' }], { branch: 'done', label: 'enough' }), 'route')
    .addFunctionBranch('again', 'Again', () => {})
    .loopTo('body')
    .addFunctionBranch('done', 'Done', () => {})
    .end()
    .setLogger(quietLogger)
    .build();
}

describe('traceExecutor on a plain chart', () => {
  it('makes the exact tree: selector, fork, nested subflows, decider and loop', async () => {
    const seen: string[] = [];
    const executor = traceExecutor(new FlowChartExecutor(demoChart(seen)), { name: 'demo' });
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('caller', async (caller) => {
      await executor.run({ input: {} });
      seen.push(`caller after: ${activeName()}`);
      caller.end(now());
    });
    const spans = sdk.spans().filter((s) => s.name !== 'caller');
    expect(render(spans, { events: true })).toBe(
      [
        'run demo <footprint.loop footprint.loop>',
        '  Seed <x.seed>',
        '  Pick <footprint.selection>',
        '  fork Pick',
        '    SelA',
        '    SelB',
        '  ForkParent',
        '  fork ForkParent',
        '    P1',
        '    P2',
        '  AfterFork',
        '  Inner',
        '    InnerA',
        '    Deep',
        '      DeepStage',
        '    InnerB',
        '  Body',
        '  Route <footprint.decision>',
        '  Again',
        '  Body',
        '  Route <footprint.decision>',
        '  Again',
        '  Body',
        '  Route <footprint.decision>',
        '  Done',
      ].join('\n'),
    );
    expect(seen.sort()).toEqual(
      [
        'Seed after await: Seed',
        'SelA: SelA',
        'SelB: SelB',
        'P1 after await: P1',
        'P2 after await: P2',
        'InnerA: InnerA',
        'DeepStage: DeepStage',
        'InnerB after await: InnerB',
        'caller after: caller',
      ].sort(),
    );
    const all = sdk.spans();
    expect(structure(all).traceIds).toHaveLength(1);
    expect(structure(all).problems).toEqual([]);
    expect(sdk.unended()).toEqual([]);

    const [selA, selB] = ['SelA', 'SelB'].map((n) => spans.find((s) => s.name === n)!);
    expect(toMs(selB.startTime)).toBeLessThan(toMs(selA.endTime));
    const pick = spans.find((s) => s.name === 'Pick')!;
    expect(pick.attributes['footprint.stage.type']).toBe('selector');
    expect(pick.events[0].attributes).toEqual({
      'footprint.selection.selected': ['SelA', 'SelB'],
      'footprint.selection.branches': ['a', 'b'],
      'footprint.selection.total': 2,
      'footprint.selection.rules': ['#0 a matched "always a" []', '#1 b matched "always b" []'],
    });
    const forkPick = spans.find((s) => s.name === 'fork Pick')!;
    expect(forkPick.attributes['footprint.fork.children']).toEqual(['SelA', 'SelB']);
    expect(toMs(forkPick.endTime)).toBeCloseTo(Math.max(toMs(selA.endTime), toMs(selB.endTime)), 3);
    const routes = spans.filter((s) => s.name === 'Route');
    expect(routes.map((r) => r.events[0].attributes!['footprint.decision.chosen'])).toEqual(['Again', 'Again', 'Done']);
    expect(routes[2].events[0].attributes).toEqual({
      'footprint.decision.chosen': 'Done',
      'footprint.decision.branch': 'done',
      'footprint.decision.default': 'done',
      'footprint.decision.rule_label': 'enough',
      'footprint.decision.rules': ['#0 again not matched "more to do" [n lt 3]'],
    });
    expect(routes[0].events[0].attributes).toEqual({
      'footprint.decision.chosen': 'Again',
      'footprint.decision.branch': 'again',
      'footprint.decision.default': 'done',
      'footprint.decision.rule_index': 0,
      'footprint.decision.rule_label': 'more to do',
      'footprint.decision.rules': ['#0 again matched "more to do" [n lt 3]'],
    });
    const deep = spans.find((s) => s.name === 'Deep')!;
    // A subflow span and a stage span of the executor layout: exact attribute sets.
    expect(deep.attributes).toEqual({
      'footprint.subflow.id': 'sf-inner/sf-deep',
      'footprint.stage.type': 'subflow',
      'footprint.stage.runtime_id': expect.stringMatching(/^sf-inner\/sf-deep#\d+$/),
    });
    expect(spans.find((s) => s.name === 'DeepStage')!.attributes).toEqual({
      'footprint.stage.id': 'sf-inner/sf-deep/deep-stage',
      'footprint.stage.runtime_id': expect.stringMatching(/^sf-inner\/sf-deep\/deep-stage#\d+$/),
      'footprint.stage.type': 'linear',
    });
    const root = spans.find((s) => s.name === 'run demo')!;
    expect(root.events.map((e) => e.attributes)).toEqual([
      { target: 'Body', iteration: 1 },
      { target: 'Body', iteration: 2 },
    ]);
    expect(root.attributes).toEqual({
      'footprint.run.id': expect.stringMatching(/^\d+-\d+$/),
      'footprint.run.outcome': 'ok',
      'footprint.llm.calls': 0,
      'footprint.tokens.input': 0,
      'footprint.tokens.output': 0,
      'footprint.cost.usd': 0,
    });
  });

  it('keeps one span per stage across retries, with attempt events', async () => {
    let failures = 2;
    const chart = flowChart<State>('Flaky', () => {
      if (failures-- > 0) throw new Error('transient');
    }, 'flaky')
      .retry({ attempts: 3 })
      .addFunction('After', () => {}, 'after')
      .setLogger(quietLogger)
      .build();
    await traceExecutor(new FlowChartExecutor(chart)).run();
    const spans = sdk.spans();
    expect(render(spans, { events: true, attrs: ['footprint.stage.attempts'] })).toBe(
      [
        'run flowchart',
        '  Flaky footprint.stage.attempts=3 <footprint.stage.retry footprint.stage.attempt footprint.stage.retry footprint.stage.attempt>',
        '  After',
      ].join('\n'),
    );
    expect(sdk.unended()).toEqual([]);
  });

  it('runs a parallel fan-out as subflow branches under a fork span', async () => {
    const branch = (i: number) => flowChart<State>(`Work${i}`, async () => sleep(1), `work-${i}`).build();
    const chart = flowChart<State & { items: number[] }>('Start', (scope) => {
      scope.items = [0, 1];
    }, 'start')
      .addParallelForEach('Each', 'each', { items: (scope) => scope.items, branch: (_item, i) => branch(i), maxBranches: 4, into: 'out' })
      .addFunction('After', () => {}, 'after')
      .setLogger(quietLogger)
      .build();
    await traceExecutor(new FlowChartExecutor(chart)).run();
    const spans = sdk.spans();
    expect(render(spans)).toBe(
      ['run flowchart', '  Start', '  Each', '  fork Each', '    Each [0]', '      Work0', '    Each [1]', '      Work1', '  After'].join('\n'),
    );
    const each = spans.find((s) => s.name === 'Each')!;
    expect(toMs(each.endTime)).toBeGreaterThanOrEqual(toMs(spans.find((s) => s.name === 'Work1')!.endTime) - 0.001);
    expect(sdk.unended()).toEqual([]);
  });

  it('fails only the failing fork child, and fails a subflow and the run when a subflow stage throws', async () => {
    const forked = flowChart<State>('Start', () => {}, 'start')
      .addListOfFunction([
        { id: 'ok', name: 'Fine', fn: async () => sleep(1) },
        { id: 'bad', name: 'Broken', fn: () => { throw new RangeError('bad child'); } },
      ])
      .addFunction('After', () => {}, 'after')
      .setLogger(quietLogger)
      .build();
    await traceExecutor(new FlowChartExecutor(forked), { name: 'forked' }).run();
    expect(render(sdk.spans(), { attrs: ['error.type'] })).toBe(
      ['run forked', '  Start', '  fork Start', '    Fine', '    Broken !ERROR error.type=RangeError', '  After'].join('\n'),
    );
    sdk.reset();

    const inner = flowChart<State>('Boom', () => { throw new Error('inside'); }, 'boom').build();
    const failing = flowChart<State>('Start', () => {}, 'start').addSubFlowChartNext('sf', inner, 'Sub').addFunction('Never', () => {}, 'never').setLogger(quietLogger).build();
    await expect(traceExecutor(new FlowChartExecutor(failing), { name: 'failing' }).run()).rejects.toThrow('inside');
    expect(render(sdk.spans(), { attrs: ['footprint.run.outcome'] })).toBe(
      ['run failing !ERROR footprint.run.outcome=error', '  Start', '  Sub !ERROR', '    Boom !ERROR'].join('\n'),
    );
    expect(sdk.unended()).toEqual([]);
  });

  it('ends every span at a pause inside a subflow, and a resume continues the same trace', async () => {
    const inner = flowChart<State>('Ask', (scope) => {
      interrupt(scope, { reason: 'approve?' });
    }, 'ask')
      .addFunction('InnerEnd', () => {}, 'inner-end')
      .build();
    const chart = flowChart<State>('Start', () => {}, 'start').addSubFlowChartNext('sf', inner, 'Sub').addFunction('Finish', () => 'done', 'finish').setLogger(quietLogger).build();
    const executor = traceExecutor(new FlowChartExecutor(chart), { name: 'approval' });
    const first = await executor.run();
    expect((first as { paused?: boolean }).paused).toBe(true);
    const paused = sdk.spans();
    expect(render(paused, { attrs: ['footprint.paused'], events: true })).toBe(
      ['run approval footprint.paused=true', '  Start', '  Sub footprint.paused=true', '    Ask footprint.paused=true <footprint.pause>'].join('\n'),
    );
    sdk.reset();
    await executor.resume(executor.getCheckpoint()!, 'yes');
    const resumed = sdk.spans();
    expect(render(resumed, { attrs: ['footprint.resumed'] })).toBe(
      ['run approval footprint.resumed=true', '  Sub', '    Ask', '    InnerEnd', '  Finish'].join('\n'),
    );
    const pausedRoot = paused.find((s) => s.name === 'run approval')!;
    const root = resumed.find((s) => s.name === 'run approval')!;
    expect(root.spanContext().traceId).toBe(pausedRoot.spanContext().traceId);
    expect(root.parentSpanContext?.spanId).toBe(pausedRoot.spanContext().spanId);
    expect(root.links.map((l) => l.context.spanId)).toEqual([pausedRoot.spanContext().spanId]);
    expect(sdk.unended()).toEqual([]);
  });
});
