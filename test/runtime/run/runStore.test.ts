/**
 * The run store keeps an agent turn's conversation and its record out of the footprintjs state (which
 * the engine copies on every stage that writes): the state holds only the turn's id, a pause saves the
 * store in the checkpoint, a resume restores it, and a checkpoint without it is refused.
 */
import { describe, expect, it } from 'vitest';
import { Agent, CheckpointError, isPaused, scripted, Sequence } from '../../../src/index.js';
import { RunStore } from '../../../src/runtime/run/store.js';
import { refundAgent } from '../../fixtures/refundAgent.js';

describe('RunStore', () => {
  it('appends in order, hands out copies when saved, and restores from what it saved', () => {
    const store = new RunStore();
    expect(store.list('a')).toEqual([]);
    store.append('a', 1, 2);
    store.append('a', 3);
    store.append('b', 'x');
    const saved = store.save();
    expect(saved).toEqual({ lists: { a: [1, 2, 3], b: ['x'] }, records: {} });
    store.append('a', 4);
    expect(saved.lists.a).toEqual([1, 2, 3]);
    const restored = new RunStore(saved);
    restored.append('a', 5);
    expect(restored.list('a')).toEqual([1, 2, 3, 5]);
    expect(saved.lists.a).toEqual([1, 2, 3]);
  });

  it("keeps records as the owner's own objects, and saves and restores copies of them", () => {
    const store = new RunStore();
    expect(store.record('turn:1')).toBeUndefined();
    const record = store.keep('turn:1', { iteration: 1, skill: { current: 'triage' } });
    record.iteration = 2;
    expect(store.record('turn:1')).toBe(record);
    const saved = store.save();
    expect(saved).toEqual({ lists: {}, records: { 'turn:1': { iteration: 2, skill: { current: 'triage' } } } });
    record.skill.current = 'refunds';
    expect(saved.records['turn:1']).toEqual({ iteration: 2, skill: { current: 'triage' } });
    const restored = new RunStore(saved);
    const again = restored.record<{ iteration: number }>('turn:1')!;
    again.iteration = 3;
    expect(saved.records['turn:1']).toEqual({ iteration: 2, skill: { current: 'triage' } });
    expect(restored.record('turn:1')).toEqual({ iteration: 3, skill: { current: 'triage' } });
  });
});

describe('an agent turn and the run store', () => {
  it('pauses with the conversation and the turn record (at the agent\'s place) in the checkpoint store and nothing in the flow state', async () => {
    const out = await refundAgent().run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    const state = out.paused.checkpoint.flow.sharedState as Record<string, unknown>;
    expect(Object.keys(state).filter((key) => !key.startsWith('$'))).toEqual([]);
    const turnId = String((out.paused.checkpoint.store.records['turn:/'] as { turnId?: unknown }).turnId);
    expect(turnId).toMatch(/^turn_/);
    // The conversation, and beside it where each of its messages came from (run/lineage.ts).
    expect(Object.keys(out.paused.checkpoint.store.lists)).toEqual([`history:${turnId}`, `origins:history:${turnId}`]);
    expect(Object.keys(out.paused.checkpoint.store.records)).toEqual(['run:conversation', 'origin:run:input', 'run:args', 'turn:/']);
    expect(out.paused.checkpoint.store.records['turn:/']).toMatchObject({
      turnId,
      userMessage: 'Refund INV-7 please',
      iteration: 1,
      historyKey: `history:${turnId}`,
      doneTools: { inv: { status: 'ok', text: expect.any(String) } },
      pausedAt: expect.any(Number),
    });
    expect(out.paused.checkpoint.store.lists[`history:${turnId}`]).toEqual([
      { role: 'user', content: 'Refund INV-7 please' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'inv', name: 'lookup_invoice', args: { id: 'INV-7' } },
          { id: 'ref', name: 'refund', args: { id: 'INV-7', amount: 40 } },
        ],
      },
    ]);
  });

  it("a finished agent's flow state keeps only its input, neither its turn nor its answer: Final returns it, and it is passed on; each member's turn is kept at its place", async () => {
    const drafter = Agent.create({ provider: scripted({ replies: ['draft text'] }), model: 'm', id: 'drafter' }).build();
    const pipeline = Sequence.create({ id: 'pipe' }).step('draft', drafter).step('refund', refundAgent()).build();
    const out = await pipeline.run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    const flow = out.paused.checkpoint.flow as {
      subflowResults: Record<string, { treeContext: { globalContext: Record<string, unknown> } }>;
      subflowStates: Record<string, Record<string, unknown>>;
    };
    const drafted = flow.subflowResults.draft!.treeContext.globalContext;
    expect(Object.keys(drafted).filter((key) => !key.startsWith('$'))).toEqual(['message', 'messageOrigin', 'answerTo']);
    expect(flow.subflowStates.refund!.message).toBe('draft text');
    const records = out.paused.checkpoint.store.records as Record<string, { userMessage?: string }>;
    expect(Object.keys(records).filter((key) => key.startsWith('turn:'))).toEqual(['turn:/draft', 'turn:/refund']);
    expect(records['turn:/draft']!.userMessage).toBe('Refund INV-7 please');
    expect(records['turn:/refund']!.userMessage).toBe('draft text');
  });

  it('resumes with the whole conversation, and refuses a checkpoint without its store', async () => {
    const out = await refundAgent().run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    const { store: _store, ...withoutStore } = out.paused.checkpoint;
    await expect(refundAgent().resume(withoutStore, 'yes')).rejects.toThrow(new CheckpointError('checkpoint is missing its run store'));
    expect((await refundAgent().resume(out.paused.checkpoint, 'yes')).text).toBe('Done: invoice INV-7: $40 paid | refunded $40');
  });
});
