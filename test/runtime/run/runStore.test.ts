/**
 * The run store keeps an agent turn's conversation out of the footprintjs state (which the engine
 * copies on every stage that writes): the state holds only the key, a pause saves the store in the
 * checkpoint, a resume restores it, and a checkpoint without it is refused.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointError, isPaused } from '../../../src/index.js';
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
    expect(saved).toEqual({ a: [1, 2, 3], b: ['x'] });
    store.append('a', 4);
    expect(saved.a).toEqual([1, 2, 3]);
    const restored = new RunStore(saved);
    restored.append('a', 5);
    expect(restored.list('a')).toEqual([1, 2, 3, 5]);
    expect(saved.a).toEqual([1, 2, 3]);
  });
});

describe('an agent turn and the run store', () => {
  it('pauses with the conversation in the checkpoint store and only its key in the flow state', async () => {
    const out = await refundAgent().run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    const state = out.checkpoint.flow.sharedState as Record<string, unknown>;
    expect(state.history).toBeUndefined();
    expect(state.historyKey).toBe(`history:${String(state.turnId)}`);
    expect(Object.keys(out.checkpoint.store)).toEqual([state.historyKey]);
    expect(out.checkpoint.store[state.historyKey as string]).toEqual([
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

  it('resumes with the whole conversation, and refuses a checkpoint without its store', async () => {
    const out = await refundAgent().run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    const { store: _store, ...withoutStore } = out.checkpoint;
    await expect(refundAgent().resume(withoutStore, 'yes')).rejects.toThrow(new CheckpointError('checkpoint is missing its run store'));
    expect(await refundAgent().resume(out.checkpoint, 'yes')).toBe('Done: invoice INV-7: $40 paid | refunded $40');
  });
});
