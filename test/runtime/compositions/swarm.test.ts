/** swarm: hand-offs driven by route(), the hand-off budget, unknown ids, and each stop reason. */
import { describe, expect, it } from 'vitest';
import { ConfigError, RunFailedError } from '../../../src/runtime/index.js';
import { swarm, type PickInput } from '../../../src/runtime/compositions/index.js';
import { collect, echoAgent, failingAgent, ofType } from '../../support/compositions.js';

describe('swarm', () => {
  it('hands off between agents until route names nobody, and records why it stopped', async () => {
    const asked: PickInput[] = [];
    const billing = echoAgent('billing');
    const desk = swarm({
      id: 'desk',
      agents: [
        { id: 'triage', runner: echoAgent('triage').agent },
        { id: 'billing', runner: billing.agent },
      ],
      pick: (input) => {
        asked.push(input);
        return input.lastAgent === undefined ? 'triage' : input.lastAgent === 'triage' ? 'billing' : undefined;
      },
    });
    const events = collect(desk);

    const result = await desk.run('refund please');
    // The second agent gets the user's request and the first agent's reply, labelled.
    expect(result.text).toBe('billing(Agent "triage" replied:\ntriage(refund please))');
    expect(billing.provider.calls[0]!.messages).toEqual([
      { role: 'user', content: 'refund please' },
      { role: 'user', content: 'Agent "triage" replied:\ntriage(refund please)' },
    ]);
    expect([result.stopReason, result.answeredBy]).toEqual(['answered', { id: 'billing', kind: 'agent', path: 'swarm:desk/agent:billing' }]);
    expect(asked).toEqual([
      { message: 'refund please', lastAgent: undefined, handoffs: 0 },
      { message: 'triage(refund please)', lastAgent: 'triage', handoffs: 1 },
      { message: 'billing(Agent "triage" replied:\ntriage(refund please))', lastAgent: 'billing', handoffs: 2 },
    ]);
    const decisions = ofType(events, 'footprint.composition.route_decided').map((e) => e.payload);
    expect(decisions.map((d) => [d.chosen, d.matched])).toEqual([
      ['triage', 'pick_fn'],
      ['billing', 'pick_fn'],
      ['', 'none'],
    ]);
    expect(decisions[1]!.rationale).toBe('pick chose "billing" (hand-off 2 of at most 10)');
    expect(ofType(events, 'footprint.composition.iteration').map((e) => e.payload.iteration)).toEqual([1, 2, 3]);
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ compositionId: 'desk', kind: 'swarm', status: 'no_route', stopReason: 'no_route' });
    expect(ofType(events, 'footprint.call.llm_end').map((e) => [e.meta.agentId, e.meta.route])).toEqual([
      ['triage', 'desk>triage'],
      ['billing', 'desk>billing'],
    ]);
  });

  it('stops when the hand-off budget is spent', async () => {
    const { agent, provider } = echoAgent('a');
    const desk = swarm({ id: 'desk', agents: [{ id: 'a', runner: agent }], pick: () => 'a', maxHandoffs: 2 });
    const events = collect(desk);
    const result = await desk.run('x');
    expect(result.text).toBe('a(Agent "a" replied:\na(x))');
    expect(result.stopReason).toBe('budget_exhausted');
    expect(provider.calls).toHaveLength(2);
    const last = ofType(events, 'footprint.composition.route_decided').at(-1)!.payload;
    expect(last).toMatchObject({ chosen: '', matched: 'pick_fn', inRoster: true, evidence: { requested: 'a', maxHandoffs: 2 } });
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ status: 'budget_exhausted', stopReason: 'budget_exhausted' });
  });

  it('stops with a recorded reason when route names an agent outside the roster', async () => {
    const desk = swarm({
      id: 'desk',
      agents: [{ id: 'a', runner: echoAgent('a').agent }],
      pick: ({ handoffs }) => (handoffs === 0 ? 'a' : 'ghost'),
    });
    const events = collect(desk);
    expect((await desk.run('x')).text).toBe('a(x)');
    expect(ofType(events, 'footprint.composition.route_decided').at(-1)!.payload).toMatchObject({
      chosen: '',
      matched: 'pick_fn',
      inRoster: false,
      evidence: { requested: 'ghost' },
    });
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ status: 'no_route', stopReason: 'unknown_agent' });
  });

  it('fails the run naming the agent whose model call throws', async () => {
    const desk = swarm({ id: 'desk', agents: [{ id: 'a', runner: failingAgent('a').agent }], pick: () => 'a' });
    const error = (await desk.run('x').catch((e: unknown) => e)) as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect([error.member, error.stage]).toEqual([{ kind: 'agent', id: 'a' }, 'call-llm']);
  });

  it('refuses configurations that cannot work', () => {
    const a = echoAgent('a').agent;
    expect(() => swarm({ agents: [], pick: () => undefined })).toThrow(ConfigError);
    expect(() => swarm({ agents: [{ id: 'a', runner: a }], pick: () => 'a', maxHandoffs: 0 })).toThrow(/maxHandoffs/);
    expect(() => swarm({ agents: [{ id: 'a', runner: a }], pick: () => 'a', maxHandoffs: 101 })).toThrow(/maxHandoffs/);
    expect(() => swarm({ agents: [{ id: 'settle', runner: a }], pick: () => 'a' })).toThrow(/used by the composition itself/);
    expect(() => swarm({ agents: [{ id: 'a', runner: a }] } as never)).toThrow(new ConfigError('swarm "swarm" needs a pick function'));
  });
});
