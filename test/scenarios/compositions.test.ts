/**
 * Conformance for composed runs (one executor, one trace): Sequence, Parallel with overlapping
 * branches (and a failing one), Conditional, Loop, swarm, llmRouter feeding a swarm, llmSwarm, a
 * skill-graph agent that trips ping-pong and rejected-cap guards and escalates, a failure inside a
 * nested member, and a pause inside a Sequence step resumed into the same trace. Every case checks
 * the exact tree (full detail, plus semantic where the shape differs), one trace, all spans ended.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tracingInstrument } from '../../src/otel/index.js';
import {
  Agent,
  Conditional,
  defineSkill,
  isPaused,
  llmRouter,
  llmSwarm,
  Loop,
  Parallel,
  ProviderError,
  registerInstrument,
  scripted,
  Sequence,
  skillGraph,
  swarm,
  type ScriptedReply,
} from '../../src/runtime/index.js';
import { answerAttributes } from '../support/agents.js';
import { wholePartTable } from '../support/lineageLinks.js';
import { startSdk } from '../support/sdk.js';
import { render, structure, toMs, payloadOf } from '../support/traceTree.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
/** Each test's tracing registrations, undone after it (a later one replaces an earlier of the same id). */
const registered: Array<() => void> = [];
const traceWith = (options?: Parameters<typeof tracingInstrument>[0]) => void registered.push(registerInstrument(tracingInstrument(options)));
beforeEach(() => {
  sdk.reset();
  traceWith();
});
afterEach(() => {
  for (const undo of registered.splice(0)) undo();
});

const pad = (depth: number) => '  '.repeat(depth);
/** One single-iteration agent turn, full detail, at `depth`. */
const turn = (depth: number, model: string) => [
  ...['Context', 'CallLLM'].map((n) => pad(depth) + n),
  `${pad(depth + 1)}chat ${model} [CLIENT]`,
  `${pad(depth)}Final`,
];

function agent(id: string, reply: ScriptedReply, name = id) {
  return Agent.create({ provider: scripted({ replies: [reply] }), model: `m-${id}`, id, name }).build();
}

function wellFormed(spans: ReadableSpan[] = sdk.spans()): void {
  const { traceIds, roots, problems } = structure(spans);
  expect(traceIds).toHaveLength(1);
  expect(roots).toHaveLength(1);
  expect(problems).toEqual([]);
  expect(sdk.unended()).toEqual([]);
}

function semantic(): void {
  traceWith({ detail: 'semantic' });
}

describe('Sequence', () => {
  const pipeline = () => Sequence.create({ id: 'pipeline' }).step('draft', agent('writer', 'a draft', 'Writer')).step('edit', agent('editor', 'edited', 'Editor')).build();

  it('is a workflow span with one agent span per step', async () => {
    expect((await pipeline().run('write')).text).toBe('edited');
    expect(render(sdk.spans(), { events: ['footprint.composition.enter', 'footprint.composition.exit'] })).toBe(
      [
        'invoke_workflow pipeline',
        '  Enter <footprint.composition.enter>',
        '  invoke_agent Writer',
        ...turn(2, 'm-writer'),
        '  invoke_agent Editor',
        ...turn(2, 'm-editor'),
        '  Exit <footprint.composition.exit>',
      ].join('\n'),
    );
    const root = sdk.spans().find((s) => s.name === 'invoke_workflow pipeline')!;
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'pipeline',
      'footprint.member.kind': 'sequence',
      'footprint.member.id': 'pipeline',
      'footprint.runner.kind': 'sequence',
      'footprint.runner.id': 'pipeline',
      'footprint.run.id': expect.stringMatching(/^run_[0-9a-z]+$/),
      'footprint.run.outcome': 'ok',
      'footprint.composition.kind': 'sequence',
      'footprint.composition.status': 'ok',
      'footprint.llm.calls': 2,
      'footprint.tokens.input': 4,
      'footprint.tokens.output': 4,
      'footprint.cost.usd': 0,
      // The editor's answer is the run's.
      ...answerAttributes(sdk.spans().find((s) => s.name === 'chat m-editor')!),
    });
    // A member's span: its own GenAI attributes and roll-ups, no run id or outcome of its own.
    const writer = sdk.spans().find((s) => s.name === 'invoke_agent Writer')!;
    expect(writer.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Writer',
      'gen_ai.request.model': 'm-writer',
      'gen_ai.usage.input_tokens': 2,
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.response.finish_reasons': ['stop'],
      'footprint.subflow.id': 'draft',
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'writer',
      'footprint.turn.outcome': 'ok',
      'footprint.llm.calls': 1,
      'footprint.iterations': 1,
      'footprint.cost.usd': 0,
    });
    wellFormed();
  });

  it('keeps only the workflow and agent spans in semantic detail', async () => {
    semantic();
    await pipeline().run('write');
    expect(render(sdk.spans())).toBe(
      ['invoke_workflow pipeline', '  invoke_agent Writer', '    chat m-writer [CLIENT]', '  invoke_agent Editor', '    chat m-editor [CLIENT]'].join('\n'),
    );
    wellFormed();
  });
});

describe('Parallel', () => {
  const panel = (tech: ScriptedReply) =>
    Parallel.create({ id: 'panel' })
      .branch('legal', agent('legal', { content: 'legal view', delayMs: 30 }, 'Legal'))
      .branch('tech', agent('tech', tech, 'Tech'))
      .merge((results) => results.map((r) => `${r.id}:${r.status}`).join(' '))
      .build();

  it('runs overlapping branches as member spans under the workflow span', async () => {
    expect((await panel({ content: 'tech view', delayMs: 5 }).run('review')).text).toBe('legal:ok tech:ok');
    const spans = sdk.spans();
    expect(render(spans)).toBe(
      [
        'invoke_workflow panel',
        '  Fork',
        '  invoke_agent Legal',
        ...turn(2, 'm-legal'),
        '  invoke_agent Tech',
        ...turn(2, 'm-tech'),
        '  Merge',
      ].join('\n'),
    );
    const [legal, tech] = ['invoke_agent Legal', 'invoke_agent Tech'].map((n) => spans.find((s) => s.name === n)!);
    expect(toMs(tech.startTime)).toBeLessThan(toMs(legal.endTime));
    expect(toMs(legal.startTime)).toBeLessThan(toMs(tech.endTime));
    const root = spans.find((s) => s.name === 'invoke_workflow panel')!;
    for (const member of [legal, tech]) expect(member.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(spans.find((s) => s.name === 'Merge')!.events.map((e) => e.name)).toEqual([
      'footprint.composition.branch_end',
      'footprint.composition.branch_end',
      'footprint.composition.exit',
    ]);
    wellFormed();
  });

  it('fails only the failing branch; the run goes on', async () => {
    const down = { error: new ProviderError({ provider: 'openai', kind: 'http', status: 502, message: 'bad gateway' }) };
    expect((await panel(down).run('review')).text).toBe('legal:ok tech:error');
    const spans = sdk.spans();
    const status = (name: string) => spans.find((s) => s.name === name)!.status.code;
    expect(status('invoke_agent Tech')).toBe(SpanStatusCode.ERROR);
    expect(status('invoke_agent Legal')).toBe(SpanStatusCode.UNSET);
    const root = spans.find((s) => s.name === 'invoke_workflow panel')!;
    expect(root.status.code).toBe(SpanStatusCode.UNSET);
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'panel',
      'footprint.member.kind': 'parallel',
      'footprint.member.id': 'panel',
      'footprint.runner.kind': 'parallel',
      'footprint.runner.id': 'panel',
      'footprint.run.id': expect.stringMatching(/^run_[0-9a-z]+$/),
      'footprint.run.outcome': 'ok',
      'footprint.composition.kind': 'parallel',
      'footprint.composition.status': 'partial',
      'footprint.llm.calls': 2,
      'footprint.tokens.input': 2,
      'footprint.tokens.output': 3,
      'footprint.cost.usd': 0,
    });
    wellFormed();

    sdk.reset();
    semantic();
    await panel(down).run('review');
    expect(render(sdk.spans())).toBe(
      ['invoke_workflow panel', '  invoke_agent Legal', '    chat m-legal [CLIENT]', '  invoke_agent Tech !ERROR', '    chat m-tech [CLIENT] !ERROR'].join('\n'),
    );
    wellFormed();
  });
});

describe('Conditional', () => {
  it('shows the decision and only the chosen branch', async () => {
    const desk = Conditional.create({ id: 'desk' })
      .when('billing', ({ message }) => ({ match: /invoice/.test(message), evidence: { rule: 'invoice' } }), agent('billing', 'paid', 'Billing'))
      .otherwise('general', agent('general', 'hello', 'General'))
      .build();
    expect((await desk.run('about invoice 42')).text).toBe('paid');
    const spans = sdk.spans();
    expect(render(spans, { events: ['footprint.composition.route_decided'] })).toBe(
      [
        'invoke_workflow desk',
        '  Enter',
        '  Route <footprint.composition.route_decided>',
        '  invoke_agent Billing',
        ...turn(2, 'm-billing'),
        '  Exit',
      ].join('\n'),
    );
    const route = spans.find((s) => s.name === 'Route' && s.attributes['footprint.stage.id'] === 'route')!;
    expect(payloadOf(route.events[0])).toEqual({
      kind: 'conditional',
      composition_id: 'desk',
      chosen: 'billing',
      matched: 'predicate',
      rationale: 'predicate #1 ("billing") matched',
      'evidence.rule': 'invoice',
      'footprint.member.kind': 'conditional',
      'footprint.member.id': 'desk',
    });
    // Runner runs attach no flow hook: the typed route_decided event is the decision.
    expect(route.events.some((e) => e.name === 'footprint.decision')).toBe(false);
    const root = spans.find((s) => s.name === 'invoke_workflow desk')!;
    expect(root.attributes['footprint.skill.path']).toBe('billing');
    const chat = spans.find((s) => s.name === 'chat m-billing')!;
    expect(chat.attributes['footprint.route']).toBe('desk>billing');
    wellFormed();
  });
});

describe('Loop', () => {
  it('has one agent span per pass', async () => {
    const polish = Loop.create({ id: 'polish' }).repeat(agent('editor', 'better', 'Editor')).times(2).build();
    expect((await polish.run('text')).text).toBe('better');
    expect(render(sdk.spans(), { events: ['footprint.composition.iteration', 'footprint.loop'] })).toBe(
      [
        'invoke_workflow polish',
        '  Enter <footprint.composition.iteration>',
        '  invoke_agent Editor',
        ...turn(2, 'm-editor'),
        '  Check',
        '  Again <footprint.composition.iteration>',
        '  invoke_agent Editor',
        ...turn(2, 'm-editor'),
        '  Check',
        '  Exit',
      ].join('\n'),
    );
    wellFormed();
  });
});

describe('swarm', () => {
  it('routes between agents, one agent span per hand-off', async () => {
    const team = swarm({
      id: 'team',
      agents: [
        { id: 'a', runner: agent('a', 'from a', 'A') },
        { id: 'b', runner: agent('b', 'from b', 'B') },
      ],
      pick: ({ lastAgent }) => (lastAgent === undefined ? 'a' : lastAgent === 'a' ? 'b' : undefined),
    });
    expect((await team.run('go')).text).toBe('from b');
    const spans = sdk.spans();
    expect(render(spans, { events: ['footprint.composition.route_decided'] })).toBe(
      [
        'invoke_workflow team',
        '  Enter',
        '  Route <footprint.composition.route_decided>',
        '  invoke_agent A',
        ...turn(2, 'm-a'),
        '  Settle',
        '  Continue',
        '  Again',
        '  Route <footprint.composition.route_decided>',
        '  invoke_agent B',
        ...turn(2, 'm-b'),
        '  Settle',
        '  Continue',
        '  Again',
        '  Route <footprint.composition.route_decided>',
        '  Stop',
        '  Settle',
        '  Continue',
        '  Exit',
      ].join('\n'),
    );
    expect(spans.find((s) => s.name === 'invoke_workflow team')!.attributes['footprint.skill.path']).toBe('a>b');
    wellFormed();
  });
});

describe('llmRouter and llmSwarm', () => {
  const roster = [
    { id: 'billing', description: 'Invoices and refunds' },
    { id: 'tech', description: 'Errors and outages' },
  ];
  // Runner runs trace a subflow that is no member under its subflow id (scope hooks carry no display name).
  // The router's model call is its decision: invoke_agent {router id}.
  const billing = () => ({ ...roster[0], runner: agent('billing', 'refunded', 'Billing') });
  const tech = () => ({ ...roster[1], runner: agent('tech', 'fixed', 'Tech') });
  /** An llmSwarm over `agents` whose router sends the first turn to billing, then answers itself. */
  const billingDesk = (agents = [billing(), tech()]) =>
    llmSwarm({
      id: 'desk',
      provider: scripted({ replies: [JSON.stringify({ agentId: 'billing', message: 'refund order 7' }), JSON.stringify({ message: 'All done.' })] }),
      model: 'router-m',
      agents,
    });
  const routerCall = (depth: number, id = 'router') => [`${pad(depth)}${id}`, `${pad(depth + 1)}Ask`, `${pad(depth + 1)}invoke_agent router`, ...turn(depth + 2, 'router-m'), `${pad(depth + 1)}Decide`];

  it('traces a router step on its own: the router call (chat span, cost) and its decision', async () => {
    const router = llmRouter({
      provider: scripted({ replies: [{ content: JSON.stringify({ agentId: 'billing', message: 'refund order 7', reason: 'money' }), usage: { input: 50, output: 10 } }] }),
      model: 'router-m',
      agents: roster,
      pricing: { 'router-m': { input: 1, output: 1 } },
    });
    const desk = Sequence.create({ id: 'desk' }).step('triage', router.step).build();
    expect((await desk.run('I want my money back')).text).toBe('refund order 7');
    const spans = sdk.spans();
    expect(render(spans)).toBe(['invoke_workflow desk', '  Enter', ...routerCall(1, 'triage'), '  Exit'].join('\n'));
    // The router's own invoke_agent span and its chat span: exact attribute sets.
    expect(spans.find((s) => s.name === 'invoke_agent router')!.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'router',
      'gen_ai.request.model': 'router-m',
      'gen_ai.request.temperature': 0,
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 10,
      'gen_ai.response.finish_reasons': ['stop'],
      'footprint.subflow.id': 'triage/llm',
      'footprint.member.kind': 'router',
      'footprint.member.id': 'router',
      'footprint.turn.outcome': 'ok',
      'footprint.llm.calls': 1,
      'footprint.iterations': 1,
      'footprint.cost.usd': expect.closeTo(60 / 1e6, 12),
    });
    const chat = spans.find((s) => s.name === 'chat router-m')!;
    expect(chat.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'router-m',
      'gen_ai.request.temperature': 0,
      'gen_ai.response.model': 'router-m',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 10,
      'footprint.agent': 'router',
      'footprint.brain': 'default',
      'footprint.iteration': 1,
      'footprint.llm.call_id': expect.stringMatching(/^call_[0-9a-z]+$/),
      'footprint.cost.priced': true,
      'footprint.cost.usd': expect.closeTo(60 / 1e6, 12),
      // The router's prompt (its roster) and the run's input ("I want my money back").
      'footprint.lineage.part.origins': ['instructions', 'run_input'],
      'footprint.lineage.part.producers': ['router', expect.stringMatching(/^run_[0-9a-z]+$/)],
      'footprint.lineage.part.tokens': [244, 5],
    });
    const decide = spans.find((s) => s.name === 'Decide')!;
    expect(decide.events[0].name).toBe('footprint.composition.route_decided');
    expect(payloadOf(decide.events[0])).toEqual({
      kind: 'router',
      composition_id: 'router',
      chosen: 'billing',
      matched: 'llm',
      router: 'router',
      in_roster: true,
      rationale: 'the router chose "billing"',
      'footprint.member.kind': 'router',
      'footprint.member.id': 'router',
    });
    // The router model's free-text reason is a completion: content, kept out unless capture is on.
    expect(payloadOf(decide.events[0])['evidence.reason']).toBeUndefined();
    const root = spans.find((s) => s.name === 'invoke_workflow desk')!;
    expect(root.attributes['footprint.skill.path']).toBe('billing');
    expect(root.attributes['footprint.llm.calls']).toBe(1);
    wellFormed();
  });

  it("judges an llmSwarm router's choice outside the roster on the router's own chat span", async () => {
    const desk = llmSwarm({
      id: 'desk',
      routerId: 'dispatch',
      provider: scripted({ replies: [JSON.stringify({ agentId: 'legal', message: 'see a lawyer' })] }),
      model: 'router-m',
      agents: [billing()],
    });
    expect((await desk.run('sue them')).text).toBe('see a lawyer');
    expectOneRouterChoiceJudged({ label: 'not_in_roster', explanation: 'the router named an agent outside its roster', routerId: 'dispatch' });
    wellFormed();
  });

  it("judges a router answer that cannot be parsed as malformed, on the router's own chat span", async () => {
    const router = llmRouter({ provider: scripted({ replies: ['billing, I think'] }), model: 'router-m', agents: roster, id: 'triage' });
    const desk = Sequence.create({ id: 'desk' }).step('triage', router.step).build();
    await expect(desk.run('I want my money back')).rejects.toThrow('the router answer is not JSON');
    expectOneRouterChoiceJudged({ label: 'malformed', explanation: 'the router answer is not JSON', routerId: 'triage' });
    wellFormed();
  });

  it.each(['full', 'semantic'] as const)("gives an llmSwarm's agent span its roster description (%s detail)", async (detail) => {
    traceWith({ detail });
    const desk = billingDesk();
    expect((await desk.run('money back')).text).toBe('refunded');
    const described = sdk.spans().filter((s) => s.attributes['gen_ai.agent.description'] !== undefined).map((s) => [s.name, s.attributes['gen_ai.agent.description']]);
    expect(described).toEqual([['invoke_agent Billing', 'Invoices and refunds']]);
    wellFormed();
  });

  it('traces an llmSwarm: a router call before every turn', async () => {
    const desk = billingDesk();
    expect((await desk.run('money back')).text).toBe('refunded');
    expect(render(sdk.spans())).toBe(
      [
        'invoke_workflow desk',
        '  Enter',
        ...routerCall(1),
        '  Route',
        '  invoke_agent Billing',
        ...turn(2, 'm-billing'),
        '  Settle',
        '  Continue',
        '  Again',
        ...routerCall(1),
        '  Route',
        '  Stop',
        '  Settle',
        '  Continue',
        '  Exit',
      ].join('\n'),
    );
    // One routing act, one decision: two router calls, two route_decided events, both on the swarm's Route stage.
    const decisions = sdk.spans().flatMap((s) => s.events.filter((e) => e.name === 'footprint.composition.route_decided').map((e) => [s.name, payloadOf(e).chosen]));
    expect(decisions).toEqual([
      ['Route', 'billing'],
      ['Route', ''],
    ]);
    wellFormed();
    sdk.reset();
    semantic();
    await billingDesk([billing()]).run('money back');
    expect(render(sdk.spans())).toBe(
      [
        'invoke_workflow desk',
        '  invoke_agent router',
        '    chat router-m [CLIENT]',
        '  invoke_agent Billing',
        '    chat m-billing [CLIENT]',
        '  invoke_agent router',
        '    chat router-m [CLIENT]',
      ].join('\n'),
    );
    wellFormed();
  });
});

describe('a skill graph', () => {
  it('shows hops, a ping-pong trip, a rejected-cap trip and the escalation, searchable on the run span', async () => {
    const triage = defineSkill({ id: 'triage', description: 'Sorts requests', body: 'Sort it.' });
    const billing = defineSkill({ id: 'billing', description: 'Money', body: 'Bill it.' });
    const refunds = defineSkill({ id: 'refunds', description: 'Refunds', body: 'Refund it.' });
    const graph = skillGraph().entry(triage).edge(triage, billing).edge(billing, triage).edge(billing, refunds).build();
    const pick = (id: string): ScriptedReply => ({ toolCalls: [{ name: 'read_skill', args: { id } }] });
    const provider = scripted({ replies: [pick('billing'), pick('triage'), pick('billing'), pick('triage'), pick('refunds'), pick('refunds'), pick('refunds'), 'never'] });
    const escalation = scripted({ name: 'anthropic', replies: ['Escalated answer.'] });
    const desk = Agent.create({ provider, model: 'small', id: 'desk', name: 'Desk' })
      .skillGraph(graph, { pingPongWindow: 4, maxRejectedRetries: 3, escalation: { provider: escalation, model: 'big', afterRefusals: 3 } })
      .build();
    expect((await desk.run('help me')).text).toBe('Escalated answer.');
    const spans = sdk.spans();
    const root = spans.find((s) => s.name === 'invoke_agent Desk')!;
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Desk',
      'gen_ai.request.model': 'small',
      'gen_ai.usage.input_tokens': 615,
      'gen_ai.usage.output_tokens': 12,
      'gen_ai.response.finish_reasons': ['stop'],
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'desk',
      'footprint.runner.kind': 'agent',
      'footprint.runner.id': 'desk',
      'footprint.run.id': expect.stringMatching(/^run_[0-9a-z]+$/),
      'footprint.run.outcome': 'ok',
      'footprint.turn.outcome': 'ok',
      'footprint.trip.kinds': 'ping_pong,rejected_cap',
      'footprint.escalated': true,
      'footprint.skill.path': 'triage>billing>triage>billing>triage',
      'footprint.llm.calls': 8,
      'footprint.iterations': 8,
      'footprint.tokens.input': 615,
      'footprint.tokens.output': 12,
      'footprint.cost.usd': 0,
      // The escalated model's call gave the answer.
      ...answerAttributes(spans.find((s) => s.name === 'chat big')!),
    });
    const eventsOf = (name: string) =>
      spans.filter((s) => s.events.some((e) => e.name === name)).map((s) => [s.name, s.attributes['footprint.stage.loop_iteration'] ?? 0]);
    expect(eventsOf('footprint.loop_guard.trip')).toEqual([
      ['CallLLM', 4],
      ['ToolCalls', 6],
    ]);
    expect(eventsOf('footprint.skill.escalated')).toEqual([['ToolCalls', 6]]);
    expect(eventsOf('footprint.skill.rejected')).toEqual([
      ['ToolCalls', 4],
      ['ToolCalls', 5],
      ['ToolCalls', 6],
    ]);
    // The trip, rejection and escalation span events: exact payloads.
    const payloads = (name: string) => spans.flatMap((s) => s.events.filter((e) => e.name === name).map(payloadOf));
    const turn = { agent_id: 'desk', turn_id: expect.stringMatching(/^turn_[0-9a-z]+$/), 'footprint.member.kind': 'agent', 'footprint.member.id': 'desk' };
    expect(payloads('footprint.loop_guard.trip')).toEqual([
      { ...turn, kind: 'ping_pong', skills: ['triage', 'billing'], window: 4, iteration: 5, tokens_since_loop: 114, cost_since_loop_usd: 0, action: 'label' },
      { ...turn, kind: 'rejected_cap', skills: ['triage'], count: 3, iteration: 7, tokens_since_loop: 249, cost_since_loop_usd: 0, action: 'label' },
    ]);
    expect(payloads('footprint.skill.rejected')).toEqual(
      [5, 6, 7].map((iteration) => ({ ...turn, current: 'triage', requested: 'refunds', allowed: ['billing'], iteration })),
    );
    const { turn_id: _turnId, ...member } = turn;
    expect(payloads('footprint.skill.escalated')).toEqual([
      { ...member, 'from.provider': 'scripted', 'from.model': 'small', 'to.provider': 'anthropic', 'to.model': 'big', reason: 'refusals', refusals: 3, iteration: 7 },
    ]);
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    expect(chats.map((c) => [c.name, c.attributes['footprint.skill'], c.attributes['footprint.brain']])).toEqual([
      ['chat small', 'triage', 'default'],
      ['chat small', 'billing', 'default'],
      ['chat small', 'triage', 'default'],
      ['chat small', 'billing', 'default'],
      ['chat small', 'triage', 'default'],
      ['chat small', 'triage', 'default'],
      ['chat small', 'triage', 'default'],
      ['chat big', 'triage', 'escalation'],
    ]);
    expect(chats.at(-1)!.attributes['gen_ai.provider.name']).toBe('anthropic');
    // A chat span inside a skill, on the escalation brain, and a refused read_skill: exact attribute sets.
    expect(chats.at(-1)!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'big',
      'gen_ai.response.model': 'big',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 184,
      'gen_ai.usage.output_tokens': 5,
      'footprint.agent': 'desk',
      'footprint.skill': 'triage',
      'footprint.brain': 'escalation',
      'footprint.iteration': 8,
      'footprint.llm.call_id': expect.stringMatching(/^call_[0-9a-z]+$/),
      'footprint.cost.priced': false,
      'footprint.cost.usd': 0,
      // What follows the 14 parts it shares with the call before (the same skill, input and six read_skill rounds): the seventh round, the tool list.
      'footprint.lineage.part.origins': ['model_output', 'tool_result', 'tool_definitions'],
      'footprint.lineage.part.producers': [expect.stringMatching(/^call_[0-9a-z]+$/), expect.stringMatching(/^call_[0-9a-z]+:call_\d+_\d+_\d+$/), 'desk'],
      'footprint.lineage.part.tokens': [7, 41, 67],
      'footprint.lineage.shared.parts': 14,
      'footprint.lineage.shared.span_id': chats.at(-2)!.spanContext().spanId,
    });
    // The whole table: the triage body (entered by the last hop), the input, seven read_skill replies and
    // their results (billing, triage, billing, triage, then three refusals), the tool list.
    expect(wholePartTable(chats.at(-1)!, spans)).toEqual({
      origins: ['skill', 'run_input', ...Array.from({ length: 7 }, () => ['model_output', 'tool_result']).flat(), 'tool_definitions'],
      producers: [
        expect.stringMatching(/^hop_[0-9a-z]+$/),
        expect.stringMatching(/^run_[0-9a-z]+$/),
        ...Array.from({ length: 7 }, () => [expect.stringMatching(/^call_[0-9a-z]+$/), expect.stringMatching(/^call_[0-9a-z]+:call_\d+_\d+_\d+$/)]).flat(),
        'desk',
      ],
      tokens: [9, 2, 7, 14, 7, 13, 7, 14, 7, 13, 7, 41, 7, 41, 7, 41, 67],
    });
    // read_skill is the conventions' load_skill form of execute_tool: the skill asked for names the span.
    const reads = spans.filter((s) => s.attributes['gen_ai.tool.name'] === 'read_skill');
    expect(reads.map((r) => r.name)).toEqual(['billing', 'triage', 'billing', 'triage', 'refunds', 'refunds', 'refunds'].map((skill) => `execute_tool read_skill ${skill}`));
    expect(reads.at(-1)!.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.name': 'read_skill',
      'gen_ai.skill.name': 'refunds',
      'gen_ai.tool.description': 'Move to another skill. From "triage" you may read: billing.',
      'gen_ai.tool.call.id': expect.stringMatching(/^call_\d+_\d+_\d+$/),
      'error.type': 'skill_rejected',
      'footprint.agent': 'desk',
      'footprint.iteration': 7,
      'footprint.tool.parallel_count': 1,
      'footprint.tool.status': 'error',
    });
    expect(reads.map((r) => r.status.code)).toEqual([0, 0, 0, 0, 2, 2, 2]);
    wellFormed();
  });
});

describe('a failure inside a nested member', () => {
  it('fails the member, every composition around it and the run', async () => {
    const failing = agent('bad', { error: new ProviderError({ provider: 'openai', kind: 'http', status: 500, message: 'down' }) }, 'Bad');
    const outer = Sequence.create({ id: 'outer' })
      .step('first', agent('good', 'fine', 'Good'))
      .step('inner', Sequence.create({ id: 'inner' }).step('bad', failing).build())
      .build();
    await expect(outer.run('go')).rejects.toThrow(/failed in agent "bad" at stage "call-llm"/);
    const spans = sdk.spans();
    expect(render(spans, { attrs: ['error.type'] })).toBe(
      [
        'invoke_workflow outer !ERROR error.type=500',
        '  Enter',
        '  invoke_agent Good',
        ...turn(2, 'm-good'),
        '  invoke_workflow inner !ERROR error.type=500',
        '    Enter',
        '    invoke_agent Bad !ERROR error.type=500',
        ...turn(3, 'm-bad').slice(0, 1),
        '      CallLLM !ERROR error.type=500',
        '        chat m-bad [CLIENT] !ERROR error.type=500',
      ].join('\n'),
    );
    const failed = spans.find((s) => s.name === 'invoke_workflow outer')!.events.find((e) => e.name === 'footprint.run.failed')!;
    expect(payloadOf(failed)).toEqual({
      member: 'bad',
      member_kind: 'agent',
      stage: 'call-llm',
      'error.type': '500',
      'error.message': 'ProviderError: down',
      'footprint.member.kind': 'sequence',
      'footprint.member.id': 'outer',
    });
    wellFormed();

    sdk.reset();
    semantic();
    await expect(outer.run('go')).rejects.toThrow();
    expect(render(sdk.spans())).toBe(
      [
        'invoke_workflow outer !ERROR',
        '  invoke_agent Good',
        '    chat m-good [CLIENT]',
        '  invoke_workflow inner !ERROR',
        '    invoke_agent Bad !ERROR',
        '      chat m-bad [CLIENT] !ERROR',
      ].join('\n'),
    );
    wellFormed();
  });
});

describe('a pause inside a Sequence step', () => {
  const flow = () => {
    const approver = Agent.create({
      provider: scripted({ replies: (request) => (request.messages.some((m) => m.role === 'tool') ? 'approved' : { toolCalls: [{ id: 'q1', name: 'ask', args: {} }] }) }),
      model: 'm-approver',
      id: 'approver',
      name: 'Approver',
    })
      .tool({ name: 'ask', description: 'asks a human', inputSchema: { type: 'object' }, execute: async (_args, ctx) => ctx.pause('go ahead?') })
      .build();
    return Sequence.create({ id: 'flow' }).step('first', agent('good', 'fine', 'Good')).step('approval', approver).build();
  };

  it.each(['full', 'semantic'] as const)('resumes into the same trace with the member named again (%s)', async (detail) => {
    if (detail === 'semantic') semantic();
    const paused = await flow().run('start');
    if (!isPaused(paused)) throw new Error('expected a pause');
    const pausedRoot = sdk.spans().find((s) => s.name === 'invoke_workflow flow')!;
    expect(sdk.spans().find((s) => s.name === 'invoke_agent Approver')!.attributes['footprint.paused']).toBe(true);
    expect(sdk.unended()).toEqual([]);
    sdk.reset();
    expect((await flow().resume(JSON.parse(JSON.stringify(paused.paused.checkpoint)), 'yes')).text).toBe('approved');
    const spans = sdk.spans();
    const expected =
      detail === 'full'
        ? [
            'invoke_workflow flow',
            '  invoke_agent Approver',
            '    ToolCalls',
            '      execute_tool ask',
            // The resumed turn loops back to its call: no Context stage (it opened the turn before the pause).
            ...turn(2, 'm-approver').slice(1),
            '  Exit',
          ]
        : ['invoke_workflow flow', '  invoke_agent Approver', '    execute_tool ask', '    chat m-approver [CLIENT]'];
    expect(render(spans)).toBe(expected.join('\n'));
    const root = spans.find((s) => s.name === 'invoke_workflow flow')!;
    expect(root.parentSpanContext?.spanId).toBe(pausedRoot.spanContext().spanId);
    expect(root.spanContext().traceId).toBe(pausedRoot.spanContext().traceId);
    // The resumed member's span, named again: its exact attribute set (the subflow id is a stage-layout attribute).
    expect(spans.find((s) => s.name === 'invoke_agent Approver')!.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Approver',
      'gen_ai.request.model': 'm-approver',
      'gen_ai.usage.input_tokens': 3,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.response.finish_reasons': ['stop'],
      ...(detail === 'full' ? { 'footprint.subflow.id': 'approval' } : {}),
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'approver',
      'footprint.turn.outcome': 'ok',
      'footprint.llm.calls': 2,
      'footprint.iterations': 2,
      'footprint.cost.usd': 0,
    });
    const { problems } = structure(spans);
    expect(problems).toEqual([]);
    expect(sdk.unended()).toEqual([]);
  });
});

/**
 * The run judged one router choice, as a failed footprint.router_choice evaluation with `label` on the
 * chat span of the router `routerId` (under its CallLLM stage): the exact event attributes.
 */
function expectOneRouterChoiceJudged(expected: { label: string; explanation: string; routerId: string }): void {
  const evaluated = evaluations();
  expect(evaluated.map(({ span, parent, event }) => [span.name, parent, event.attributes])).toEqual([
    [
      'chat router-m',
      'CallLLM',
      {
        'gen_ai.evaluation.name': 'footprint.router_choice',
        'gen_ai.evaluation.score.value': 0,
        'gen_ai.evaluation.score.label': expected.label,
        'gen_ai.evaluation.explanation': expected.explanation,
      },
    ],
  ]);
  expect(evaluated[0]!.span.attributes['footprint.agent']).toBe(expected.routerId);
}

/** Every gen_ai.evaluation.result event of the run, with the span it sits on and that span's parent's name. */
function evaluations() {
  const spans = sdk.spans();
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  return spans.flatMap((span) =>
    span.events
      .filter((e) => e.name === 'gen_ai.evaluation.result')
      .map((event) => ({ span, parent: byId.get(span.parentSpanContext?.spanId ?? '')?.name, event })),
  );
}
