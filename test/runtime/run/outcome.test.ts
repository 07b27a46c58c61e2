/** The run outcome the runtime decides once and hands to every instrument, with the stop reason. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, registerInstrument, scripted, swarm, type RunOutcome } from '../../../src/runtime/index.js';
import { echoAgent } from '../../support/compositions.js';

const seen: RunOutcome[] = [];
let unregister: () => void;
beforeAll(() => {
  unregister = registerInstrument({ id: 'test.outcomes', start: () => ({ finished: (outcome) => void seen.push(outcome) }) });
});
afterAll(() => unregister());

async function outcomeOf(run: () => Promise<unknown>): Promise<RunOutcome> {
  seen.length = 0;
  await run().catch(() => undefined);
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('the outcome tracker', () => {
  it('says answered with the output', async () => {
    const { agent } = echoAgent('a');
    expect(await outcomeOf(() => agent.run('x'))).toEqual({ status: 'ok', output: 'a(x)' });
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
    expect(await outcomeOf(() => desk.run('x'))).toEqual({ status: 'stopped_early', output: 'a(Agent "a" replied:\na(x))', reason: 'budget_exhausted' });
  });

  it('tells a cancelled run from a failed one', async () => {
    const slow = echoAgent('slow', { delayMs: 200 }).agent;
    expect((await outcomeOf(() => slow.run('x', { signal: AbortSignal.timeout(20) }))).status).toBe('cancelled');
    const failing = Agent.create({ provider: scripted({ replies: [{ error: new Error('down') }] }), model: 'm', id: 'f' }).build();
    const failed = await outcomeOf(() => failing.run('x'));
    expect(failed.status === 'failed' && failed.origin).toEqual({ member: { kind: 'agent', id: 'f' }, stage: 'call-llm' });
  });
});
