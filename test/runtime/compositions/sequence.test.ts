/**
 * Sequence: stage order, output threading, nested event attribution, a member's failure ending the run,
 * and pause/resume from a JSON checkpoint on a new instance (plus the shapes the engine cannot resume).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointError, ConfigError, isPaused, RunFailedError } from '../../../src/runtime/index.js';
import { Conditional, Sequence } from '../../../src/runtime/compositions/index.js';
import { agentTurn, approvalAgent, collect, echoAgent, failingAgent, ofType, recordStages } from '../../support/compositions.js';

let recorder: ReturnType<typeof recordStages> | undefined;
afterEach(() => recorder?.stop());

describe('Sequence', () => {
  it('runs its steps in order, each on the previous output, as one run', async () => {
    recorder = recordStages();
    const writer = echoAgent('writer');
    const editor = echoAgent('editor');
    const pipeline = Sequence.create({ id: 'pipe' }).step('draft', writer.agent).step('edit', editor.agent).build();
    const events = collect(pipeline);

    expect((await pipeline.run('hello')).text).toBe('editor(writer(hello))');
    expect(recorder.stages).toEqual(['enter', ...agentTurn('draft'), ...agentTurn('edit'), 'exit']);
    expect(new Set(events.map((e) => e.meta.runId)).size).toBe(1);
    expect(events[0]!.type).toBe('footprint.composition.enter');
    expect(events[0]!.payload).toEqual({ compositionId: 'pipe', kind: 'sequence', childCount: 2 });
    const last = events[events.length - 1]!;
    expect(last.type).toBe('footprint.composition.exit');
    expect(last.payload).toMatchObject({ compositionId: 'pipe', kind: 'sequence', status: 'ok' });
  });

  it("delivers nested agents' stream and cost events to the top-level listener, tagged with their member", async () => {
    const pipeline = Sequence.create({ id: 'pipe' })
      .step('draft', echoAgent('writer').agent)
      .step('edit', echoAgent('editor').agent)
      .build();
    const events = collect(pipeline);
    await pipeline.run('hello');

    const calls = ofType(events, 'footprint.call.llm_end');
    expect(calls.map((t) => t.meta.member)).toEqual([
      { kind: 'agent', id: 'writer' },
      { kind: 'agent', id: 'editor' },
    ]);
    expect(calls[1]!.meta).toMatchObject({
      agentId: 'editor',
      compositionPath: ['sequence:pipe', 'agent:editor'],
      route: '',
      subflowPath: ['edit'],
    });
    expect(ofType(events, 'footprint.call.llm_start').map((e) => [e.meta.agentId, e.meta.runtimeStageId.split('#')[0]])).toEqual([
      ['writer', 'draft/call-llm'],
      ['editor', 'edit/call-llm'],
    ]);
    const enter = ofType(events, 'footprint.composition.enter')[0]!;
    expect(enter.meta).toMatchObject({ member: { kind: 'sequence', id: 'pipe' }, compositionPath: ['sequence:pipe'] });
  });

  it('fails the run naming the nested agent and stage when its model call throws', async () => {
    const broken = failingAgent('editor');
    const after = echoAgent('publisher');
    const pipeline = Sequence.create({ id: 'pipe' })
      .step('draft', echoAgent('writer').agent)
      .step('edit', broken.agent)
      .step('publish', after.agent)
      .build();
    const events = collect(pipeline);

    const error = await pipeline.run('hello').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedError);
    expect((error as RunFailedError).member).toEqual({ kind: 'agent', id: 'editor' });
    expect((error as RunFailedError).stage).toBe('call-llm');
    expect(((error as RunFailedError).cause as Error).message).toBe('editor model is down');
    const failed = ofType(events, 'footprint.run.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.payload).toMatchObject({ member: 'editor', memberKind: 'agent', stage: 'call-llm', error: { type: 'Error' } });
    expect(failed[0]!.payload.error.message).toContain('editor model is down');
    expect(after.provider.calls).toHaveLength(0);
    expect(ofType(events, 'footprint.composition.exit')).toHaveLength(0);
  });

  it('refuses configurations that cannot work', () => {
    const { agent } = echoAgent('a');
    expect(() => Sequence.create().build()).toThrow(ConfigError);
    expect(() => Sequence.create().step('a', agent).step('a', agent)).toThrow(/two members are named "a"/);
    expect(() => Sequence.create().step('exit', agent)).toThrow(/used by the composition itself/);
    expect(() => Sequence.create().step('a/b', agent)).toThrow(ConfigError);
    expect(() => Sequence.create().step('a', {} as never)).toThrow(/not a runner/);
  });
});

describe('pause and resume inside a composition', () => {
  it('resumes a Sequence from a JSON round-tripped checkpoint on a new instance', async () => {
    const build = () => {
      const prep = echoAgent('prep');
      const approver = approvalAgent('approver');
      const wrap = echoAgent('wrap');
      const flow = Sequence.create({ id: 'flow' }).step('prep', prep.agent).step('approve', approver.agent).step('wrap', wrap.agent).build();
      return { flow, prep, approver, wrap };
    };
    const first = build();
    const firstEvents = collect(first.flow);
    const paused = await first.flow.run('pay the invoice');
    expect(isPaused(paused)).toBe(true);
    if (!isPaused(paused)) return;
    expect(paused.paused.question).toBe('Approve 42?');
    expect(ofType(firstEvents, 'footprint.run.paused')[0]!.meta.member).toEqual({ kind: 'agent', id: 'approver' });
    expect(first.wrap.provider.calls).toHaveLength(0);

    const stored = JSON.parse(JSON.stringify(paused.paused.checkpoint));
    const second = build();
    const events = collect(second.flow);
    const answer = await second.flow.resume(stored, 'yes');

    expect(answer.text).toBe('wrap(approved: human said yes)');
    expect(second.prep.provider.calls).toHaveLength(0);
    expect(second.approver.provider.calls).toHaveLength(1);
    expect(new Set(events.map((e) => e.meta.runId))).toEqual(new Set([paused.paused.checkpoint.runId]));
    expect(ofType(events, 'footprint.run.resumed')[0]!.payload).toMatchObject({ question: 'Approve 42?', toolName: 'approve', agentId: 'approver' });
    expect(ofType(events, 'footprint.composition.enter')).toHaveLength(0);
    expect(ofType(events, 'footprint.composition.exit').map((e) => e.payload.compositionId)).toEqual(['flow']);
  });

  it('resumes through a Conditional nested in a Sequence without re-deciding or re-announcing it', async () => {
    const build = () => {
      const approver = approvalAgent('approver');
      const gate = Conditional.create({ id: 'gate' })
        .when('approve', ({ message }) => message.includes('pay'), approver.agent)
        .otherwise('skip', echoAgent('skip').agent)
        .build();
      return { flow: Sequence.create({ id: 'flow' }).step('gate', gate).build(), approver };
    };
    const paused = await build().flow.run('pay it');
    if (!isPaused(paused)) throw new Error('expected a pause');
    expect(paused.paused.checkpoint.flow.subflowPath).toEqual(['gate', 'gate/approve']);

    const second = build();
    const events = collect(second.flow);
    expect((await second.flow.resume(JSON.stringify(paused.paused.checkpoint), 'ok')).text).toBe('approved: human said ok');
    expect(ofType(events, 'footprint.composition.route_decided')).toHaveLength(0);
    expect(ofType(events, 'footprint.composition.enter')).toHaveLength(0);
    expect(ofType(events, 'footprint.composition.exit').map((e) => e.payload.compositionId)).toEqual(['gate', 'flow']);
  });

  it('refuses to resume a pause that the engine would continue wrongly (a top-level Conditional)', async () => {
    const build = () =>
      Conditional.create({ id: 'gate' }).when('approve', () => true, approvalAgent('approver').agent).otherwise('skip', echoAgent('skip').agent).build();
    const paused = await build().run('pay it');
    if (!isPaused(paused)) throw new Error('expected a pause');
    await expect(build().resume(paused.paused.checkpoint, 'ok')).rejects.toThrow(CheckpointError);
    await expect(build().resume(paused.paused.checkpoint, 'ok')).rejects.toThrow(/Sequence step/);
  });
});
