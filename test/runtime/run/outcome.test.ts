/** The run outcome the runtime decides once and hands to every instrument, with the stop reason. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, llmRouter, Parallel, registerInstrument, scripted, swarm, type RunOutcome } from '../../../src/runtime/index.js';
import { echoAgent } from '../../support/compositions.js';

const seen: RunOutcome[] = [];
/** The model calls of the run, in the order they answered. */
const answeredCalls: string[] = [];
let unregister: () => void;
beforeAll(() => {
  unregister = registerInstrument({
    id: 'test.outcomes',
    start: ({ events }) => {
      events.subscribe((event) => {
        if (event.type === 'footprint.call.llm_end') answeredCalls.push((event.payload as { callId: string }).callId);
      });
      return { finished: (outcome) => void seen.push(outcome) };
    },
  });
});
afterAll(() => unregister());

async function outcomeOf(run: () => Promise<unknown>): Promise<RunOutcome> {
  seen.length = 0;
  answeredCalls.length = 0;
  await run().catch(() => undefined);
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('the outcome tracker', () => {
  it('says answered with the output, and the model call whose output it is', async () => {
    const { agent } = echoAgent('a');
    const outcome = await outcomeOf(() => agent.run('x'));
    expect(answeredCalls).toHaveLength(1);
    expect(outcome).toEqual({ status: 'ok', output: 'a(x)', answeredBy: answeredCalls[0] });
  });

  it("names the router's model call as the answer of a router step run on its own: its message is parsed from that call's JSON", async () => {
    const router = llmRouter({ provider: scripted({ replies: [JSON.stringify({ agentId: 'billing', message: 'refund order 7' })] }), model: 'm', agents: [{ id: 'billing', description: 'Invoices' }] });
    const outcome = await outcomeOf(() => router.step.run('money back'));
    expect(answeredCalls).toHaveLength(1);
    expect(outcome).toEqual({ status: 'ok', output: 'refund order 7', answeredBy: answeredCalls[0] });
  });

  it("names no model call for a Parallel's merge: no model's output is the answer", async () => {
    const panel = Parallel.create({ id: 'panel' }).branch('a', echoAgent('a').agent).branch('b', echoAgent('b').agent).merge((results) => results.map((r) => r.id).join(' ')).build();
    expect(await outcomeOf(() => panel.run('x'))).toEqual({ status: 'ok', output: 'a b' });
  });

  it("gives the top-level agent's stop reason", async () => {
    const agent = Agent.create({ provider: scripted({ replies: [{ toolCalls: [{ name: 'noop' }] }] }), model: 'm', id: 'capped', maxIterations: 1 })
      .tool({ name: 'noop', description: 'Does nothing', inputSchema: { type: 'object' }, execute: () => 'ok' })
      .build();
    const outcome = await outcomeOf(() => agent.run('x'));
    expect(outcome).toMatchObject({ status: 'stopped_early', reason: 'max_iterations' });
    expect(Object.keys(outcome).sort()).toEqual(['output', 'reason', 'status']);
  });

  it("gives a swarm's stop reason when it runs out of hand-offs", async () => {
    const desk = swarm({ id: 'desk', agents: [{ id: 'a', runner: echoAgent('a').agent }], pick: () => 'a', maxHandoffs: 2 });
    const outcome = await outcomeOf(() => desk.run('x'));
    // The answer is the last turn's: its call answered last.
    expect(answeredCalls).toHaveLength(2);
    expect(outcome).toEqual({ status: 'stopped_early', output: 'a(Agent "a" replied:\na(x))', reason: 'budget_exhausted', answeredBy: answeredCalls[1] });
  });

  it('tells a cancelled run from a failed one', async () => {
    const slow = echoAgent('slow', { delayMs: 200 }).agent;
    expect((await outcomeOf(() => slow.run('x', { signal: AbortSignal.timeout(20) }))).status).toBe('cancelled');
    const failing = Agent.create({ provider: scripted({ replies: [{ error: new Error('down') }] }), model: 'm', id: 'f' }).build();
    const failed = await outcomeOf(() => failing.run('x'));
    expect(failed.status === 'failed' && failed.origin).toEqual({ member: { kind: 'agent', id: 'f' }, stage: 'call-llm' });
  });
});
