/**
 * A run of the runtime's own charts reports its stages to its hub (hub.ts subscribeStages), and the
 * tracing instrument hears them there instead of through a footprintjs recorder. The reports must be
 * what footprintjs's own scope hooks say of the same run: every stage execution's start, in order,
 * with its name, stage id, runtime stage id and fork branch, and the end of each one that returned
 * (none for a stage that threw or paused by throwing). Each run below is heard both ways at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Conditional, Loop, Sequence } from '../../../src/runtime/compositions/index.js';
import { Agent, isPaused, llmSwarm, registerInstrument, scripted, subscribeStages, type Runner, type StageExecution } from '../../../src/runtime/index.js';
import { twoToolAgent } from '../../support/agents.js';
import { approvalAgent, echoAgent, echoPanel, failingAgent } from '../../support/compositions.js';

type Line = string;
const line = (hook: 'start' | 'end', s: StageExecution): Line => `${hook} ${s.runtimeStageId} ${s.stageId} ${s.stageName} ${s.pipelineId}`;

let stop: (() => void) | undefined;
afterEach(() => stop?.());

/** Hears every run two ways: footprintjs's stage hooks and the hub's stage reports. */
function hearBothWays() {
  const heard = { footprintjs: [] as Line[], hub: [] as Line[], subscribed: 0 };
  stop?.();
  stop = registerInstrument({
    id: 'test.stage-reports',
    start({ executor, events }) {
      executor.attachScopeRecorder({
        id: 'test.stage-reports',
        onStageStart: (event) => void heard.footprintjs.push(line('start', event)),
        onStageEnd: (event) => void heard.footprintjs.push(line('end', event)),
      });
      const unsubscribe = subscribeStages(events, { started: (s) => void heard.hub.push(line('start', s)), ended: (s) => void heard.hub.push(line('end', s)) });
      if (unsubscribe) heard.subscribed++;
      return { finished: () => unsubscribe?.() };
    },
  });
  return heard;
}

async function expectSameReports(run: (heard: ReturnType<typeof hearBothWays>) => Promise<unknown>, starts: number) {
  const heard = hearBothWays();
  await run(heard);
  expect(heard.subscribed).toBeGreaterThan(0);
  expect(heard.footprintjs.filter((l) => l.startsWith('start'))).toHaveLength(starts);
  expect(heard.hub).toEqual(heard.footprintjs);
}

describe("a run's stage reports, against footprintjs's own stage hooks", () => {
  it('an agent with tools over three iterations (a decider stage, a loop back)', async () => {
    await expectSameReports(() => twoToolAgent().run('Is invoice 42 paid?'), 7);
  });

  it('a Parallel of a Sequence and an agent (fork branches: their own pipeline ids)', async () => {
    await expectSameReports(async () => expect((await echoPanel().run('x')).text).toBe('editor(writer(x)) + summarizer(x)'), 13);
  });

  it('a Conditional and a Loop', async () => {
    const desk = Conditional.create({ id: 'desk' }).when('billing', ({ message }) => message.includes('invoice'), echoAgent('billing').agent).otherwise('general', echoAgent('general').agent).build();
    await expectSameReports(() => desk.run('my invoice'), 6);
    const polish = Loop.create({ id: 'polish' }).repeat(echoAgent('editor').agent).times(2).build();
    await expectSameReports(() => polish.run('text'), 11);
  });

  it("an llmSwarm (the router's own model call mounted under it)", async () => {
    const billing = Agent.create({ provider: scripted({ replies: ['refunded'] }), model: 'm', id: 'billing' }).build();
    const desk = llmSwarm({
      id: 'desk',
      provider: scripted({ replies: [JSON.stringify({ agentId: 'billing', message: 'refund order 7' }), JSON.stringify({ message: 'All done.' })] }),
      model: 'router-m',
      agents: [{ id: 'billing', description: 'Invoices and refunds', runner: billing }],
    });
    await expectSameReports(async () => expect((await desk.run('refund please')).text).toBe('refunded'), 23);
  });

  it('a stage that throws reports its start and no end, as footprintjs does', async () => {
    const pipe: Runner = Sequence.create({ id: 'pipe' }).step('a', echoAgent('a').agent).step('b', failingAgent('b').agent).build();
    await expectSameReports(() => expect(pipe.run('x')).rejects.toThrow('b model is down'), 6);
  });

  it('a run that pauses in a tool and the run that resumes it', async () => {
    const { agent } = approvalAgent('approver');
    let checkpoint: unknown;
    await expectSameReports(async () => {
      const first = await agent.run('pay');
      if (!isPaused(first)) throw new Error('expected a pause');
      checkpoint = first.paused.checkpoint;
    }, 3);
    await expectSameReports(async () => expect((await agent.resume(checkpoint as never, 'yes')).text).toBe('approved: human said yes'), 3);
  });

  it('a run its caller cancels mid-call', async () => {
    const { agent } = echoAgent('slow', { delayMs: 200 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expectSameReports(() => expect(agent.run('x', { signal: controller.signal })).rejects.toThrow(), 2);
  });

  it('a stage listener that throws loses its own report, never the stage, and the next listener hears every one', async () => {
    const heard: Line[] = [];
    stop?.();
    stop = registerInstrument({
      id: 'test.stage-reports',
      start({ events }) {
        const throwing = subscribeStages(events, {
          started: () => {
            throw new Error('instrument bug');
          },
          ended: () => {
            throw new Error('instrument bug');
          },
        });
        const listening = subscribeStages(events, { started: (s) => void heard.push(line('start', s)), ended: (s) => void heard.push(line('end', s)) });
        return { finished: () => [throwing, listening].forEach((unsubscribe) => unsubscribe?.()) };
      },
    });
    expect((await twoToolAgent().run('Is invoice 42 paid?')).text).toBe('Invoice 42 is paid.');
    expect(heard.filter((l) => l.startsWith('start')).map((l) => l.split(' ')[2])).toEqual(['context', 'call-llm', 'tool-calls', 'call-llm', 'tool-calls', 'call-llm', 'final']);
    expect(heard.filter((l) => l.startsWith('end'))).toHaveLength(7);
  });
});
