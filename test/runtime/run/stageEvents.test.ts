/**
 * A stage of a runner's run hands its typed events to the run's hub directly (events/emit.ts,
 * run/stageScope.ts), stamped with the runtime stage id its scope was made for: the id of a stage
 * footprintjs has started and not yet ended, in concurrent branches too, with the subflow path
 * footprintjs's id gives. A stage reads its input from its env (stageInput): a subflow's stages get
 * what the composition mapped in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stageIds, type TypedEvent } from '../../../src/events/index.js';
import { registerInstrument } from '../../../src/runtime/index.js';
import { collect, echoPanel } from '../../support/compositions.js';

let stop: (() => void) | undefined;
afterEach(() => stop?.());

/** Each event with the stages footprintjs had open when the event was delivered. */
function openStagesAtEachEvent(): { seen: { event: TypedEvent; open: string[] }[] } {
  const open = new Set<string>();
  const seen: { event: TypedEvent; open: string[] }[] = [];
  stop = registerInstrument({
    id: 'test.open-stages',
    start({ executor, events }) {
      executor.attachScopeRecorder({
        id: 'test.open-stages',
        onStageStart: (e) => void open.add(e.runtimeStageId),
        onStageEnd: (e) => void open.delete(e.runtimeStageId),
      });
      events.subscribe((event) => seen.push({ event, open: [...open] }));
      return {};
    },
  });
  return { seen };
}

describe("a stage's typed events", () => {
  it('carry the runtime id of a stage footprintjs has open, and its subflow path, in concurrent branches too', async () => {
    const { seen } = openStagesAtEachEvent();
    const panel = echoPanel();
    const heard = collect(panel);

    expect((await panel.run('x')).text).toBe('editor(writer(x)) + summarizer(x)');

    expect(seen.map(({ event }) => event)).toEqual(heard);
    const misplaced = seen.filter(({ event, open }) => !open.includes(event.meta.runtimeStageId));
    expect(misplaced.map(({ event }) => [event.type, event.meta.runtimeStageId])).toEqual([]);
    expect(heard.filter((e) => JSON.stringify(e.meta.subflowPath) !== JSON.stringify(stageIds.subflowPathOf(e.meta.runtimeStageId)))).toEqual([]);
    expect(Object.isFrozen(heard[0]!.meta.subflowPath)).toBe(true);
    expect(new Set(heard.map((e) => e.meta.subflowPath.join('/')))).toEqual(new Set(['', 'long', 'long/draft', 'long/edit', 'short']));
  });
});
