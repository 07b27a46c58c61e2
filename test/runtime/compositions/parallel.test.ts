/**
 * Parallel: branches overlap in time inside one run, merge sees every output or error in declaration
 * order, a failing branch is reported (never swallowed) and a nested Parallel keeps its own failures.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, RunCancelledError, RunFailedError } from '../../../src/runtime/index.js';
import { Loop, Parallel, Sequence, type BranchResult } from '../../../src/runtime/compositions/index.js';
import { agentTurn, collect, echoAgent, failingAgent, ofType, recordStages } from '../../support/compositions.js';

let recorder: ReturnType<typeof recordStages> | undefined;
afterEach(() => recorder?.stop());

const joinOk = (results: BranchResult[]) => results.map((r) => (r.status === 'ok' ? r.output : `${r.id} failed`)).join(' | ');

describe('Parallel', () => {
  it('runs its branches concurrently in one run and merges them in declaration order', async () => {
    recorder = recordStages();
    const panel = Parallel.create({ id: 'panel' })
      .branch('legal', echoAgent('legal', { delayMs: 80 }).agent)
      .branch('tech', echoAgent('tech', { delayMs: 40 }).agent)
      .branch('money', echoAgent('money', { delayMs: 60 }).agent)
      .merge(joinOk)
      .build();
    const events = collect(panel);

    expect((await panel.run('q')).text).toBe('legal(q) | tech(q) | money(q)');
    const starts = ofType(events, 'footprint.call.llm_start').map((e) => e.meta.timestamp);
    const ends = ofType(events, 'footprint.call.llm_end');
    expect(starts).toHaveLength(3);
    // Every model call started before any of them finished: the branches overlapped.
    expect(Math.max(...starts)).toBeLessThan(Math.min(...ends.map((e) => e.meta.timestamp)));
    expect(ends.map((e) => e.meta.agentId)).toEqual(['tech', 'money', 'legal']);
    expect(new Set(events.map((e) => e.meta.runId)).size).toBe(1);

    expect(recorder.stages[0]).toBe('fork');
    expect(recorder.stages[recorder.stages.length - 1]).toBe('merge');
    for (const branch of ['legal', 'tech', 'money']) {
      expect(recorder.stages.filter((s) => s.startsWith(`${branch}/`))).toEqual(agentTurn(branch));
    }

    expect(ofType(events, 'footprint.composition.fork')[0]!.payload).toEqual({ compositionId: 'panel', branches: ['legal', 'tech', 'money'] });
    expect(ofType(events, 'footprint.composition.branch_end').map((e) => [e.payload.branch, e.payload.status])).toEqual([
      ['legal', 'ok'],
      ['tech', 'ok'],
      ['money', 'ok'],
    ]);
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ status: 'ok' });
    const call = ofType(events, 'footprint.call.llm_end').find((e) => e.meta.agentId === 'tech')!;
    expect(call.meta).toMatchObject({ member: { kind: 'agent', id: 'tech' }, compositionPath: ['parallel:panel', 'agent:tech'], route: '' });
  });

  it('reports a failing branch with its error, hands it to merge and exits partial', async () => {
    let seen: BranchResult[] = [];
    const panel = Parallel.create({ id: 'panel' })
      .branch('legal', echoAgent('legal', { delayMs: 30 }).agent)
      .branch('tech', failingAgent('tech', 'tech model is down').agent)
      .merge((results) => {
        seen = results;
        return joinOk(results);
      })
      .build();
    const events = collect(panel);

    expect((await panel.run('q')).text).toBe('legal(q) | tech failed');
    expect(seen).toEqual([
      { id: 'legal', status: 'ok', output: 'legal(q)' },
      {
        id: 'tech',
        status: 'error',
        error: { type: 'Error', message: 'tech model is down', member: { kind: 'agent', id: 'tech' }, stage: 'call-llm' },
      },
    ]);
    const ends = ofType(events, 'footprint.composition.branch_end');
    expect(ends[1]!.payload).toEqual({
      compositionId: 'panel',
      branch: 'tech',
      status: 'error',
      error: { type: 'Error', message: 'tech model is down' },
    });
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ status: 'partial', stopReason: 'failed: tech' });
    expect(ofType(events, 'footprint.call.llm_end').find((e) => e.meta.agentId === 'tech')!.payload.error?.message).toContain('tech model is down');
    expect(ofType(events, 'footprint.run.failed')).toHaveLength(0);
  });

  it('charges a failure a nested Parallel absorbed to the nested branch only', async () => {
    const inner = Parallel.create({ id: 'inner' })
      .branch('ok', echoAgent('ok').agent)
      .branch('bad', failingAgent('bad').agent)
      .merge(joinOk)
      .build();
    const outer = Parallel.create({ id: 'outer' }).branch('nested', inner).branch('solo', echoAgent('solo').agent).merge(joinOk).build();
    const events = collect(outer);

    expect((await outer.run('q')).text).toBe('ok(q) | bad failed | solo(q)');
    expect(ofType(events, 'footprint.composition.branch_end').map((e) => [e.payload.compositionId, e.payload.branch, e.payload.status])).toEqual([
      ['inner', 'ok', 'ok'],
      ['inner', 'bad', 'error'],
      ['outer', 'nested', 'ok'],
      ['outer', 'solo', 'ok'],
    ]);
  });

  it("answers the run itself wherever it is mounted: answeredBy names the Parallel whose merge made the answer", async () => {
    const panel = () =>
      Parallel.create({ id: 'panel' })
        .branch('legal', echoAgent('legal').agent)
        .branch('tech', echoAgent('tech').agent)
        .merge(joinOk)
        .build();
    const top = await panel().run('q');
    expect([top.text, top.answeredBy]).toEqual(['legal(q) | tech(q)', { id: 'panel', kind: 'parallel', path: 'parallel:panel' }]);

    const pipeline = Sequence.create({ id: 'pipe' }).step('draft', echoAgent('writer').agent).step('review', panel()).build();
    const piped = await pipeline.run('q');
    expect([piped.text, piped.answeredBy]).toEqual(['legal(writer(q)) | tech(writer(q))', { id: 'panel', kind: 'parallel', path: 'sequence:pipe/parallel:panel' }]);

    const looped = await Loop.create({ id: 'again' }).repeat(panel()).times(2).build().run('q');
    expect(looped.answeredBy).toEqual({ id: 'panel', kind: 'parallel', path: 'loop:again/parallel:panel' });

    // A merge that hands one branch's output on unchanged still made the answer: no branch's turn did.
    const first = Parallel.create({ id: 'first' }).branch('legal', echoAgent('legal').agent).branch('tech', echoAgent('tech').agent).merge((results) => (results[0] as { output: string }).output).build();
    const picked = await Sequence.create({ id: 'pick' }).step('choose', first).build().run('q');
    expect([picked.text, picked.answeredBy, picked.finishReason]).toEqual(['legal(q)', { id: 'first', kind: 'parallel', path: 'sequence:pick/parallel:first' }, undefined]);

    // An agent after the Parallel answers as before.
    const after = await Sequence.create({ id: 'then' }).step('review', panel()).step('sum', echoAgent('summary').agent).build().run('q');
    expect(after.answeredBy).toEqual({ id: 'summary', kind: 'agent', path: 'sequence:then/agent:summary' });
  });

  it('is cancelled the moment the signal fires while an async merge is still working, not answered when it finishes', async () => {
    let mergeFinished = false;
    const panel = Parallel.create({ id: 'panel' })
      .branch('legal', echoAgent('legal').agent)
      .branch('tech', echoAgent('tech').agent)
      .merge(async (results) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        mergeFinished = true;
        return joinOk(results);
      })
      .build();
    const events = collect(panel);
    const controller = new AbortController();
    const reason = new Error('the user closed the tab');
    // Abort once merge has started (the branches' model calls have ended by then).
    panel.on('footprint.composition.branch_end', () => setTimeout(() => controller.abort(reason), 20));

    const error = await panel.run('q', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunCancelledError);
    expect((error as RunCancelledError).cause).toBe(reason);
    expect((error as RunCancelledError).result).toMatchObject({ stopReason: 'cancelled', text: '' });
    expect(mergeFinished).toBe(false);
    expect(ofType(events, 'footprint.run.failed').map((e) => [e.payload.member, e.payload.stage, e.payload.error.type])).toEqual([['panel', 'merge', 'cancelled']]);
    expect(ofType(events, 'footprint.composition.exit')).toEqual([]);
  });

  it('fails the run at its merge stage when merge throws', async () => {
    const panel = Parallel.create({ id: 'panel' })
      .branch('a', echoAgent('a').agent)
      .branch('b', failingAgent('b').agent)
      .merge((results) => {
        if (results.some((r) => r.status === 'error')) throw new Error('need every branch');
        return 'all good';
      })
      .build();
    const error = await panel.run('q').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedError);
    expect((error as RunFailedError).member).toEqual({ kind: 'parallel', id: 'panel' });
    expect((error as RunFailedError).stage).toBe('merge');
  });

  it('refuses configurations that cannot work', () => {
    const a = echoAgent('a').agent;
    const b = echoAgent('b').agent;
    expect(() => Parallel.create().branch('a', a).merge(joinOk).build()).toThrow(/at least two branches/);
    expect(() => Parallel.create().branch('a', a).branch('b', b).build()).toThrow(/merge/);
    expect(() => Parallel.create().branch('merge', a)).toThrow(ConfigError);
  });
});
