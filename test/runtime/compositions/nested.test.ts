/** Compositions inside compositions: one run, exact stage order, and who each event belongs to. */
import { afterEach, describe, expect, it } from 'vitest';
import { Conditional, Sequence } from '../../../src/runtime/compositions/index.js';
import { agentTurn, collect, echoAgent, echoPanel, ofType, recordStages } from '../../support/compositions.js';

let recorder: ReturnType<typeof recordStages> | undefined;
afterEach(() => recorder?.stop());

describe('nested compositions', () => {
  it('runs a Sequence inside a Parallel inside a Conditional as one run, attributing every event', async () => {
    recorder = recordStages();
    const panel = echoPanel();
    const desk = Conditional.create({ id: 'desk' })
      .when('research', ({ message }) => message.startsWith('research'), panel)
      .otherwise('chat', echoAgent('chatter').agent)
      .build();
    const events = collect(desk);

    expect((await desk.run('research x')).text).toBe('editor(writer(research x)) + summarizer(research x)');
    expect(new Set(events.map((e) => e.meta.runId)).size).toBe(1);

    const stages = recorder.stages;
    expect(stages.slice(0, 3)).toEqual(['enter', 'route', 'research/fork']);
    expect(stages.filter((s) => s.startsWith('research/long/'))).toEqual([
      'research/long/enter',
      ...agentTurn('research/long/draft'),
      ...agentTurn('research/long/edit'),
      'research/long/exit',
    ]);
    expect(stages.filter((s) => s.startsWith('research/short/'))).toEqual(agentTurn('research/short'));
    expect(stages.slice(-2)).toEqual(['research/merge', 'exit']);

    const editorCall = ofType(events, 'footprint.call.llm_end').find((e) => e.meta.agentId === 'editor')!;
    expect(editorCall.meta).toMatchObject({
      member: { kind: 'agent', id: 'editor' },
      compositionPath: ['conditional:desk', 'parallel:panel', 'sequence:pipe', 'agent:editor'],
      route: 'desk>research',
      subflowPath: ['research', 'long', 'edit'],
    });
    const pipeExit = ofType(events, 'footprint.composition.exit').find((e) => e.payload.compositionId === 'pipe')!;
    expect(pipeExit.meta).toMatchObject({ member: { kind: 'sequence', id: 'pipe' }, compositionPath: ['conditional:desk', 'parallel:panel', 'sequence:pipe'] });
    expect(ofType(events, 'footprint.composition.enter').map((e) => e.payload.compositionId)).toEqual(['desk', 'panel', 'pipe']);
    expect(ofType(events, 'footprint.composition.exit').map((e) => e.payload.compositionId)).toEqual(['pipe', 'panel', 'desk']);
  });

  it('lets a member listener hear only its own subtree, while the top level hears everything', async () => {
    const inner = Sequence.create({ id: 'inner' }).step('a', echoAgent('a').agent).build();
    const outer = Sequence.create({ id: 'outer' }).step('first', echoAgent('first').agent).step('nest', inner).build();
    const innerEvents = collect(inner);
    const outerEvents = collect(outer);
    await outer.run('x');
    expect(new Set(innerEvents.map((e) => e.meta.compositionPath[1]))).toEqual(new Set(['sequence:inner']));
    expect(outerEvents.length).toBeGreaterThan(innerEvents.length);
  });
});
