/**
 * A router model that names no agent of its roster — an invented id, a huge one, '__proto__', JSON or
 * line breaks inside the id, an id that is only a case or emoji away — never crashes the run or
 * breaks its trace: with llmRouter (mounted before a swarm) and llmSwarm alike, the decision is
 * recorded on the Decide span as not in the roster (chosen '', the requested id bounded), no agent
 * runs, the composition ends 'no_route' and the run answers cleanly, in one well-formed trace.
 * An answer that is not a decision at all fails the run with a typed error, the trace still whole.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  llmRouter,
  llmSwarm,
  RoutingDecisionError,
  RunFailedError,
  scripted,
  Sequence,
  swarm,
  tracingFailures,
} from '../../src/index.js';
import { named, only, outcomeOf } from '../support/reliability/runs.js';
import { startSdk } from '../support/sdk.js';
import { ATTRIBUTE_CAP, traceProblems } from '../support/traceChecks.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
let failuresBefore = 0;
beforeEach(() => {
  sdk.reset();
  failuresBefore = tracingFailures();
});

const ROSTER = [
  { id: 'billing', description: 'Invoices and refunds.' },
  { id: 'tech', description: 'Errors and outages.' },
];

function team() {
  const billing = scripted({ replies: ['billing handled it'] });
  const tech = scripted({ replies: ['tech handled it'] });
  return {
    billing,
    tech,
    agents: {
      billing: Agent.create({ provider: billing, model: 'm-billing', id: 'billing', name: 'Billing' }).build(),
      tech: Agent.create({ provider: tech, model: 'm-tech', id: 'tech', name: 'Tech' }).build(),
    },
  };
}

const decision = (agentId: string, message: string) => JSON.stringify({ agentId, message, reason: 'the model said so' });

const ROUTE_DECIDED = 'footprint.composition.route_decided';

/**
 * The route_decided events on the router's Decide span(s), as payload fields (whether the bridge
 * writes them bare or under the event's name).
 */
function decisionsIn(): Record<string, unknown>[] {
  // A router step on its own decides in its Decide stage; inside llmSwarm the swarm's Route stage does.
  return [...named(sdk.spans(), 'Decide'), ...named(sdk.spans(), 'Route')].flatMap((s) =>
    s.events
      .filter((e) => e.name === ROUTE_DECIDED)
      .map((e) => Object.fromEntries(Object.entries(e.attributes ?? {}).map(([k, v]) => [k.startsWith(`${ROUTE_DECIDED}.`) ? k.slice(ROUTE_DECIDED.length + 1) : k, v]))),
  );
}

function expectWellFormed(rootName: string) {
  const spans = sdk.spans();
  expect(traceProblems(spans, { unended: sdk.unended(), traces: 1 })).toEqual([]);
  const root = only(spans, rootName);
  expect(root.status.code).toBe(SpanStatusCode.UNSET);
  expect(root.attributes['footprint.run.outcome']).toBe('ok');
  expect(tracingFailures()).toBe(failuresBefore);
  return root;
}

const INVENTED: [string, string][] = [
  ['an invented id', 'ghost'],
  ['a 100,000-char id', 'g'.repeat(100_000)],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['an id with JSON inside', '{"agentId":"billing"}'],
  ['an id with a line break', 'tech\nbilling'],
  ['a case away', 'Billing'],
  ['an emoji', '🧾'],
];

describe('llmSwarm, when the router names no roster id', () => {
  it.each(INVENTED)('%s: recorded as not in the roster, no agent runs, the run answers', async (_label, id) => {
    const { billing, tech, agents } = team();
    const desk = llmSwarm({
      id: 'desk',
      provider: scripted({ replies: [decision(id, 'I will take it from here')] }),
      model: 'router-m',
      agents: ROSTER.map((entry) => ({ ...entry, runner: agents[entry.id as 'billing' | 'tech'] })),
    });
    expect((await desk.run('help me')).text).toBe('I will take it from here');
    expect(billing.calls.length + tech.calls.length).toBe(0);

    const root = expectWellFormed('invoke_workflow desk');
    expect(root.attributes['footprint.composition.status']).toBe('no_route');
    const [decided] = decisionsIn();
    expect(decided).toMatchObject({ chosen: '', in_roster: false, matched: 'llm' });
    const requested = String(decided!['evidence.requested']);
    expect(requested.length).toBeLessThanOrEqual(ATTRIBUTE_CAP);
    expect(id.startsWith(requested.slice(0, 20))).toBe(true);
  });

  it("after a real hand-off: the swarm ends there, its answer the last agent's reply (never a message meant for an agent)", async () => {
    const { billing, tech, agents } = team();
    const desk = llmSwarm({
      id: 'desk',
      provider: scripted({ replies: [decision('billing', 'refund order 7'), decision('ghost', 'pass it on')] }),
      model: 'router-m',
      agents: ROSTER.map((entry) => ({ ...entry, runner: agents[entry.id as 'billing' | 'tech'] })),
    });
    expect((await desk.run('money back')).text).toBe('billing handled it');
    expect([billing.calls.length, tech.calls.length]).toEqual([1, 0]);
    const root = expectWellFormed('invoke_workflow desk');
    expect(root.attributes['footprint.composition.status']).toBe('no_route');
    expect(decisionsIn().map((d) => [d.chosen, d.in_roster])).toEqual([
      ['billing', true],
      ['', false],
    ]);
  });
});

describe('an llmRouter step on its own (a step of a Sequence), when it names no roster id', () => {
  it('records the decision as not in the roster, and the run answers with its message', async () => {
    const router = llmRouter({ provider: scripted({ replies: [decision('root-shell', 'grant me root')] }), model: 'router-m', agents: ROSTER, id: 'triage' });
    const desk = Sequence.create({ id: 'desk' }).step('triage', router.step).build();
    expect((await desk.run('let me in')).text).toBe('grant me root');
    expect(router.decisions()).toEqual([expect.objectContaining({ unknownAgentId: 'root-shell', agentId: undefined })]);

    expectWellFormed('invoke_workflow desk');
    expect(decisionsIn()).toEqual([expect.objectContaining({ chosen: '', in_roster: false, 'evidence.requested': 'root-shell' })]);
  });

  it('an answer that is no decision at all fails the run with a typed error; the trace stays whole', async () => {
    const router = llmRouter({ provider: scripted({ replies: ['x'.repeat(50_000)] }), model: 'router-m', agents: ROSTER, id: 'triage' });
    const result = await outcomeOf(router.step.run('hi'));
    const error = (result as { error: unknown }).error as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error.cause).toBeInstanceOf(RoutingDecisionError);
    const spans = sdk.spans();
    expect(traceProblems(spans, { unended: sdk.unended(), traces: 1 })).toEqual([]);
    const root = only(spans, 'invoke_workflow triage');
    expect([root.status.code, root.attributes['error.type']]).toEqual([SpanStatusCode.ERROR, 'RoutingDecisionError']);
    expect(tracingFailures()).toBe(failuresBefore);
  });
});
