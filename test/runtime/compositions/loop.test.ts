/** Loop: times(n), until(done), the ceiling and its budget_exhausted exit, and builder refusals. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/runtime/index.js';
import { Loop, LOOP_CEILING } from '../../../src/runtime/compositions/index.js';
import { collect, echoAgent, ofType } from '../../support/compositions.js';

describe('Loop', () => {
  it('times(n) runs n passes, each on the previous output', async () => {
    const { agent, provider } = echoAgent('edit');
    const loop = Loop.create({ id: 'polish' }).repeat(agent).times(3).build();
    const events = collect(loop);

    expect((await loop.run('draft')).text).toBe('edit(edit(edit(draft)))');
    expect(provider.calls).toHaveLength(3);
    expect(ofType(events, 'footprint.composition.iteration').map((e) => e.payload.iteration)).toEqual([1, 2, 3]);
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ compositionId: 'polish', kind: 'loop', status: 'ok', stopReason: 'times' });
    expect(ofType(events, 'footprint.agent.turn_start').map((e) => e.meta.subflowPath)).toEqual([['edit'], ['edit'], ['edit']]);
  });

  it('until(done) stops after the first pass whose output satisfies it', async () => {
    const { agent } = echoAgent('e');
    const seen: { output: string; iteration: number }[] = [];
    const loop = Loop.create()
      .repeat(agent)
      .until((pass) => {
        seen.push(pass);
        return pass.output.length >= 10;
      })
      .build();
    const events = collect(loop);
    expect((await loop.run('abc')).text).toBe('e(e(e(abc)))');
    expect(seen).toEqual([
      { output: 'e(abc)', iteration: 1 },
      { output: 'e(e(abc))', iteration: 2 },
      { output: 'e(e(e(abc)))', iteration: 3 },
    ]);
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ status: 'ok', stopReason: 'until' });
  });

  it('stops at its ceiling with status budget_exhausted', async () => {
    const { agent, provider } = echoAgent('e');
    const loop = Loop.create({ id: 'stubborn' }).repeat(agent).until(() => false, { maxPasses: 4 }).build();
    const events = collect(loop);
    await loop.run('x');
    expect(provider.calls).toHaveLength(4);
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ status: 'budget_exhausted', stopReason: 'ceiling' });
  });

  it('never runs more than LOOP_CEILING passes', async () => {
    const { agent, provider } = echoAgent('e');
    const loop = Loop.create().repeat(agent).until(() => false).build();
    await loop.run('x');
    expect(provider.calls).toHaveLength(LOOP_CEILING);
  });

  it('refuses configurations that cannot work', () => {
    const { agent } = echoAgent('e');
    expect(() => Loop.create().repeat(agent).times(0)).toThrow(ConfigError);
    expect(() => Loop.create().repeat(agent).times(LOOP_CEILING + 1)).toThrow(ConfigError);
    expect(() => Loop.create().repeat(agent).until(() => true, { maxPasses: LOOP_CEILING + 1 })).toThrow(ConfigError);
    expect(() => Loop.create().repeat(agent).times(2).until(() => true)).toThrow(/not both/);
    expect(() => Loop.create().repeat(agent).build()).toThrow(/times\(n\) or until/);
    expect(() => Loop.create().times(2).build()).toThrow(/repeat/);
  });
});
