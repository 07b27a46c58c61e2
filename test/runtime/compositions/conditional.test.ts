/** Conditional: ordered predicates, evidence, the mandatory fallback, the route in meta, and failures. */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, RunFailedError } from '../../../src/runtime/index.js';
import { Conditional } from '../../../src/runtime/compositions/index.js';
import { agentTurn, collect, echoAgent, failingAgent, ofType, recordStages } from '../../support/compositions.js';

let recorder: ReturnType<typeof recordStages> | undefined;
afterEach(() => recorder?.stop());

function desk() {
  const billing = echoAgent('billing');
  const urgent = echoAgent('urgent');
  const general = echoAgent('general');
  const runner = Conditional.create({ id: 'desk' })
    .when('billing', ({ message }) => /invoice|refund/i.test(message), billing.agent)
    .when('urgent', ({ message }) => ({ match: message.endsWith('!'), evidence: { bangs: message.split('!').length - 1 } }), urgent.agent)
    .otherwise('general', general.agent)
    .build();
  return { runner, billing, urgent, general };
}

describe('Conditional', () => {
  it('takes the first branch whose predicate matches and reports why', async () => {
    recorder = recordStages();
    const { runner, billing, urgent, general } = desk();
    const events = collect(runner);

    expect((await runner.run('help!!')).text).toBe('urgent(help!!)');
    expect(recorder.stages).toEqual(['enter', 'route', ...agentTurn('urgent'), 'exit']);
    expect(billing.provider.calls).toHaveLength(0);
    expect(general.provider.calls).toHaveLength(0);
    expect(urgent.provider.calls).toHaveLength(1);

    const decisions = ofType(events, 'footprint.composition.route_decided');
    expect(decisions).toHaveLength(1);
    expect(decisions[0]!.payload).toEqual({
      compositionId: 'desk',
      kind: 'conditional',
      chosen: 'urgent',
      rationale: 'predicate #2 ("urgent") matched',
      matched: 'predicate',
      evidence: { bangs: 2 },
    });
    const call = ofType(events, 'footprint.call.llm_end')[0]!;
    expect(call.meta).toMatchObject({
      member: { kind: 'agent', id: 'urgent' },
      agentId: 'urgent',
      compositionPath: ['conditional:desk', 'agent:urgent'],
      route: 'desk>urgent',
    });
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ compositionId: 'desk', status: 'ok' });
  });

  it('evaluates predicates in order: an earlier match wins over a later one', async () => {
    const { runner } = desk();
    const events = collect(runner);
    expect((await runner.run('refund me!')).text).toBe('billing(refund me!)');
    expect(ofType(events, 'footprint.composition.route_decided')[0]!.payload).toMatchObject({ chosen: 'billing', matched: 'predicate' });
  });

  it('hands everything else to the fallback, and says so', async () => {
    const { runner } = desk();
    const events = collect(runner);
    expect((await runner.run('hello')).text).toBe('general(hello)');
    expect(ofType(events, 'footprint.composition.route_decided')[0]!.payload).toEqual({
      compositionId: 'desk',
      kind: 'conditional',
      chosen: 'general',
      rationale: 'no predicate matched; the fallback "general" took it',
      matched: 'fallback',
    });
    expect(ofType(events, 'footprint.call.llm_end')[0]!.meta.route).toBe('desk>general');
  });

  it('fails the run naming the chosen agent when its model call throws', async () => {
    const runner = Conditional.create({ id: 'desk' })
      .when('billing', () => true, failingAgent('billing', 'billing model is down').agent)
      .otherwise('general', echoAgent('general').agent)
      .build();
    const events = collect(runner);
    const error = await runner.run('invoice').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedError);
    expect((error as RunFailedError).member).toEqual({ kind: 'agent', id: 'billing' });
    expect((error as RunFailedError).stage).toBe('call-llm');
    expect(ofType(events, 'footprint.run.failed')[0]!.payload).toMatchObject({ member: 'billing', memberKind: 'agent', stage: 'call-llm' });
  });

  it('fails the run at its route stage when a predicate throws', async () => {
    const runner = Conditional.create({ id: 'desk' })
      .when('billing', () => {
        throw new Error('predicate bug');
      }, echoAgent('billing').agent)
      .otherwise('general', echoAgent('general').agent)
      .build();
    const error = (await runner.run('x').catch((e: unknown) => e)) as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect([error.member, error.stage]).toEqual([{ kind: 'conditional', id: 'desk' }, 'route']);
  });

  it('refuses to build without a fallback or without a predicate branch', () => {
    const a = echoAgent('a').agent;
    expect(() => Conditional.create().when('a', () => true, a).build()).toThrow(/otherwise/);
    expect(() => Conditional.create().otherwise('a', a).build()).toThrow(/when/);
    expect(() => Conditional.create().otherwise('a', a).otherwise('b', a)).toThrow(ConfigError);
    expect(() => Conditional.create().when('route', () => true, a)).toThrow(/used by the composition itself/);
  });
});
