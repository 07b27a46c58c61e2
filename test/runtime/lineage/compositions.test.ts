/**
 * Lineage through compositions (issue #36): what each member's model call is given, and who made it,
 * written down from each scenario. A Sequence step and a Loop pass get the step or pass before's
 * answer (handoff, by that model call); Parallel branches and a Conditional's branch get the run's
 * input; a swarm's agent gets the request and the hand-off (the last agent's call, or the router's);
 * a router step's message handed on is its chat call's; a Parallel's merged answer is the Parallel's.
 */
import { describe, expect, it } from 'vitest';
import { Conditional, LLMCall, Loop, Parallel, scripted, Sequence, swarm, llmRouter, llmSwarm, type LLMRequest } from '../../../src/index.js';
import { instructions, lineageLog, message, producer } from '../../support/lineage.js';

/** An LLMCall whose model answers `${id}(<the last message>)`, with instructions `${id}.` */
function echo(id: string) {
  const replies = (request: LLMRequest) => `${id}(${String(request.messages[request.messages.length - 1]!.content)})`;
  return LLMCall.create({ provider: scripted({ replies }), model: 'm1', id }).system(`${id}.`).build();
}

describe('Sequence', () => {
  it("hands each step the step before's answer, produced by that step's model call", async () => {
    const pipeline = Sequence.create({ id: 'pipeline' }).step('draft', echo('draft')).step('edit', echo('edit')).build();
    const log = lineageLog(pipeline);
    const result = await pipeline.run('topic');
    expect(result.text).toBe('edit(draft(topic))');
    const [draftCall] = log.callIds() as [string];
    expect(log.parts()).toEqual([
      [instructions('draft', 'draft.'), message(0, 'user', 'run_input', producer.run(result.runId), 'topic')],
      [instructions('edit', 'edit.'), message(0, 'user', 'handoff', producer.call(draftCall), 'draft(topic)')],
    ]);
  });
});

describe('Parallel', () => {
  it("gives every branch the run's input, and the step after it the Parallel's merged answer", async () => {
    const panel = Parallel.create({ id: 'panel' })
      .branch('legal', echo('legal'))
      .branch('tech', echo('tech'))
      .merge((results) => results.map((r) => (r.status === 'ok' ? r.output : '')).join(' + '))
      .build();
    const flow = Sequence.create({ id: 'flow' }).step('panel', panel).step('sum', echo('sum')).build();
    const log = lineageLog(flow);
    const result = await flow.run('case');
    const input = message(0, 'user', 'run_input', producer.run(result.runId), 'case');
    expect(log.partsOf('legal')).toEqual([[instructions('legal', 'legal.'), input]]);
    expect(log.partsOf('tech')).toEqual([[instructions('tech', 'tech.'), input]]);
    expect(log.partsOf('sum')).toEqual([[instructions('sum', 'sum.'), message(0, 'user', 'handoff', producer.member('panel'), 'legal(case) + tech(case)')]]);
  });
});

describe('Conditional', () => {
  it("gives the chosen branch the run's input", async () => {
    const desk = Conditional.create({ id: 'desk' })
      .when('billing', ({ message: text }) => text.includes('invoice'), echo('billing'))
      .otherwise('general', echo('general'))
      .build();
    const log = lineageLog(desk);
    const result = await desk.run('my invoice');
    expect(log.parts()).toEqual([[instructions('billing', 'billing.'), message(0, 'user', 'run_input', producer.run(result.runId), 'my invoice')]]);
  });

  it('as a later step, its branch gets the step before\'s answer', async () => {
    const desk = Conditional.create({ id: 'desk' }).when('billing', () => true, echo('billing')).otherwise('general', echo('general')).build();
    const flow = Sequence.create({ id: 'flow' }).step('intake', echo('intake')).step('desk', desk).build();
    const log = lineageLog(flow);
    await flow.run('x');
    const [intakeCall] = log.callIds() as [string];
    expect(log.partsOf('billing')).toEqual([[instructions('billing', 'billing.'), message(0, 'user', 'handoff', producer.call(intakeCall), 'intake(x)')]]);
  });
});

describe('Loop', () => {
  it("gives each pass after the first the pass before's answer, by its model call", async () => {
    const polish = Loop.create({ id: 'polish' }).repeat(echo('editor')).times(3).build();
    const log = lineageLog(polish);
    const result = await polish.run('text');
    expect(result.text).toBe('editor(editor(editor(text)))');
    const [first, second] = log.callIds() as [string, string];
    const system = instructions('editor', 'editor.');
    expect(log.parts()).toEqual([
      [system, message(0, 'user', 'run_input', producer.run(result.runId), 'text')],
      [system, message(0, 'user', 'handoff', producer.call(first), 'editor(text)')],
      [system, message(0, 'user', 'handoff', producer.call(second), 'editor(editor(text))')],
    ]);
  });
});

describe('swarm', () => {
  it("gives the first agent the run's input, and the next the request and the hand-off by the last agent's call", async () => {
    const desk = swarm({
      id: 'desk',
      agents: [
        { id: 'triage', runner: echo('triage') },
        { id: 'billing', runner: echo('billing') },
      ],
      pick: ({ lastAgent }) => (lastAgent === undefined ? 'triage' : lastAgent === 'triage' ? 'billing' : undefined),
    });
    const log = lineageLog(desk);
    const result = await desk.run('refund');
    const [triageCall] = log.callIds() as [string];
    const request = message(0, 'user', 'run_input', producer.run(result.runId), 'refund');
    expect(log.parts()).toEqual([
      [instructions('triage', 'triage.'), request],
      [instructions('billing', 'billing.'), request, message(1, 'user', 'handoff', producer.call(triageCall), 'Agent "triage" replied:\ntriage(refund)')],
    ]);
  });
});

describe('llmSwarm', () => {
  it("hands each agent the router's message, by the router's chat call; the router is asked about the last reply", async () => {
    const router = scripted({
      replies: [
        '{"agentId":"billing","message":"refund order 7","reason":"r1"}',
        '{"message":"done","reason":"r2"}',
      ],
    });
    const desk = llmSwarm({ provider: router, model: 'router-model', id: 'desk', agents: [{ id: 'billing', description: 'Invoices.', runner: echo('billing') }] });
    const log = lineageLog(desk);
    const result = await desk.run('refund me');
    const [routerFirst, billingCall] = log.callIds() as [string, string, string];
    const routerPrompt = log.starts[0]!.payload.systemPrompt!;
    const routerSystem = instructions('router', routerPrompt);
    expect(log.parts()).toEqual([
      [routerSystem, message(0, 'user', 'run_input', producer.run(result.runId), 'refund me')],
      [instructions('billing', 'billing.'), message(0, 'user', 'run_input', producer.run(result.runId), 'refund me'), message(1, 'user', 'handoff', producer.call(routerFirst), 'refund order 7')],
      [routerSystem, message(0, 'user', 'handoff', producer.call(billingCall), 'The user asked:\nrefund me\n\nAgent "billing" replied:\nbilling(refund order 7)')],
    ]);
  });
});

describe('the router step', () => {
  it("is given the run's input, and the step after it the router's message, by the router's chat call", async () => {
    const router = llmRouter({
      provider: scripted({ replies: ['{"agentId":"billing","message":"refund order 7","reason":"r"}'] }),
      model: 'router-model',
      agents: [{ id: 'billing', description: 'Invoices.' }],
    });
    const flow = Sequence.create({ id: 'flow' }).step('route', router.step).step('billing', echo('billing')).build();
    const log = lineageLog(flow);
    const result = await flow.run('refund me');
    const [routerCall] = log.callIds() as [string];
    expect(log.parts()).toEqual([
      [instructions('router', router.systemPrompt), message(0, 'user', 'run_input', producer.run(result.runId), 'refund me')],
      [instructions('billing', 'billing.'), message(0, 'user', 'handoff', producer.call(routerCall), 'refund order 7')],
    ]);
  });
});
