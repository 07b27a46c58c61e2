/**
 * stream() on every composition (Sequence, Parallel, Conditional, Loop, swarm, llmSwarm, the router
 * step): the same answer as run(), as exact part sequences, each text part tagged with the member,
 * agent and route that produced it; a swarm's hand-offs; a pause streamed, then resumed streaming.
 */
import { describe, expect, it } from 'vitest';
import {
  Agent,
  CheckpointError,
  Conditional,
  isPaused,
  llmRouter,
  llmSwarm,
  Loop,
  Parallel,
  scripted,
  Sequence,
  swarm,
  type Runner,
  type RunStreamPart,
} from '../../../src/index.js';
import { drain, text } from '../../support/streams.js';
import { approvalAgent, lastUser } from '../../support/compositions.js';

/** An agent that answers `${id}(<its message>)` in two chunks: `${id}(` and `<its message>)`. */
function chunkedEcho(id: string) {
  const provider = scripted({ replies: (request) => ({ chunks: [`${id}(`, `${lastUser(request)})`], usage: { input: 10, output: 5 } }) });
  return Agent.create({ provider, model: 'test-model', id }).build();
}

const agent = (id: string) => ({ kind: 'agent', id }) as const;
const echoed = (id: string, message: string, route = '') => [text(`${id}(`, agent(id), route), text(`${message})`, agent(id), route)];

/** Streams `runner` and runs it again: both give `answer`; returns the stream's parts. */
async function streamedLikeRun(runner: Runner, input: string, answer: string): Promise<RunStreamPart[]> {
  const stream = runner.stream(input);
  const parts = await drain(stream);
  expect((await stream.result).text).toBe(answer);
  expect((await runner.run(input)).text).toBe(answer);
  expect(parts.at(-1)).toEqual({ type: 'end', result: expect.objectContaining({ text: answer }) });
  return parts;
}

describe('stream() on compositions', () => {
  it('Sequence: each step streams in turn', async () => {
    const pipe = Sequence.create({ id: 'pipe' }).step('draft', chunkedEcho('writer')).step('edit', chunkedEcho('editor')).build();
    const parts = await streamedLikeRun(pipe, 'hi', 'editor(writer(hi))');
    expect(parts).toEqual([...echoed('writer', 'hi'), ...echoed('editor', 'writer(hi)'), { type: 'end', result: expect.objectContaining({ text: 'editor(writer(hi))' }) }]);
  });

  it('Parallel: every branch streams, each part tagged with its agent', async () => {
    const panel = Parallel.create({ id: 'panel' })
      .branch('legal', chunkedEcho('legal'))
      .branch('tech', chunkedEcho('tech'))
      .merge((results) => results.map((r) => (r.status === 'ok' ? r.output : r.id)).join(' | '))
      .build();
    const parts = await streamedLikeRun(panel, 'q', 'legal(q) | tech(q)');
    const byAgent = (id: string) => parts.filter((p) => p.type === 'text' && p.agentId === id);
    expect(byAgent('legal')).toEqual(echoed('legal', 'q'));
    expect(byAgent('tech')).toEqual(echoed('tech', 'q'));
    expect(parts).toHaveLength(5);
  });

  it('Conditional: the chosen branch streams, under its route', async () => {
    const desk = Conditional.create({ id: 'desk' })
      .when('billing', ({ message }) => message.includes('invoice'), chunkedEcho('billing'))
      .otherwise('general', chunkedEcho('general'))
      .build();
    const parts = await streamedLikeRun(desk, 'my invoice', 'billing(my invoice)');
    expect(parts).toEqual([...echoed('billing', 'my invoice', 'desk>billing'), { type: 'end', result: expect.objectContaining({ text: 'billing(my invoice)' }) }]);
  });

  it('Loop: every pass streams', async () => {
    const polish = Loop.create({ id: 'polish' }).repeat(chunkedEcho('poet')).times(2).build();
    const parts = await streamedLikeRun(polish, 'x', 'poet(poet(x))');
    expect(parts).toEqual([...echoed('poet', 'x'), ...echoed('poet', 'poet(x)'), { type: 'end', result: expect.objectContaining({ text: 'poet(poet(x))' }) }]);
  });

  it('swarm: a hand-off part before each agent streams its turn', async () => {
    const desk = swarm({
      id: 'desk',
      agents: [
        { id: 'triage', runner: chunkedEcho('triage') },
        { id: 'billing', runner: chunkedEcho('billing') },
      ],
      pick: ({ lastAgent }) => (lastAgent === undefined ? 'triage' : lastAgent === 'triage' ? 'billing' : undefined),
    });
    const parts = await streamedLikeRun(desk, 'refund', 'billing(Agent "triage" replied:\ntriage(refund))');
    const handoff = (to: string, n: number) => ({
      type: 'handoff',
      swarm: 'desk',
      to,
      matched: 'pick_fn',
      rationale: `pick chose "${to}" (hand-off ${n} of at most 10)`,
      member: { kind: 'swarm', id: 'desk' },
      route: '',
    });
    expect(parts).toEqual([
      handoff('triage', 1),
      ...echoed('triage', 'refund', 'desk>triage'),
      handoff('billing', 2),
      ...echoed('billing', 'Agent "triage" replied:\ntriage(refund)', 'desk>billing'),
      { type: 'end', result: expect.objectContaining({ text: 'billing(Agent "triage" replied:\ntriage(refund))' }) },
    ]);
  });

  it("llmSwarm: the router's reply streams as the router's, then the hand-off (matched llm), then the agent", async () => {
    const router = scripted({
      replies: [
        { chunks: ['{"agentId":"billing",', '"message":"refund 7","reason":"money"}'] },
        { chunks: ['{"message":"Done."', ',"reason":"finished"}'] },
      ],
    });
    const desk = llmSwarm({
      provider: router,
      model: 'router-model',
      id: 'desk',
      agents: [{ id: 'billing', description: 'Invoices and refunds.', runner: chunkedEcho('billing') }],
    });
    const stream = desk.stream('refund me');
    const parts = await drain(stream);
    const routerPart = (delta: string) => text(delta, { kind: 'router', id: 'router' });
    expect(parts).toEqual([
      routerPart('{"agentId":"billing",'),
      routerPart('"message":"refund 7","reason":"money"}'),
      {
        type: 'handoff',
        swarm: 'desk',
        to: 'billing',
        matched: 'llm',
        rationale: 'the router chose "billing" (hand-off 1 of at most 10)',
        member: { kind: 'swarm', id: 'desk' },
        route: '',
      },
      ...echoed('billing', 'refund 7', 'desk>billing'),
      routerPart('{"message":"Done."'),
      routerPart(',"reason":"finished"}'),
      { type: 'end', result: expect.objectContaining({ text: 'billing(refund 7)' }) },
    ]);
    // The answer is the agent's text, as it streamed; the router's closing message is not the answer.
    expect((await stream.result).text).toBe('billing(refund 7)');
  });

  it('the router step: its decision call streams, tagged with the router', async () => {
    const router = llmRouter({
      provider: scripted({ replies: [{ chunks: ['{"agentId":"tech","message":"reset', ' the password","reason":"login"}'] }] }),
      model: 'router-model',
      agents: [{ id: 'tech', description: 'Log-in problems.' }],
    });
    const parts = await streamedLikeRun(router.step, 'I cannot log in', 'reset the password');
    const member = { kind: 'router', id: 'router' } as const;
    expect(parts).toEqual([
      text('{"agentId":"tech","message":"reset', member),
      text(' the password","reason":"login"}', member),
      { type: 'end', result: expect.objectContaining({ text: 'reset the password' }) },
    ]);
  });
});

describe('pause and resume, streamed', () => {
  it('ends the stream with the Paused result, and resumeStream() streams the rest on a new instance', async () => {
    const build = () => Sequence.create({ id: 'flow' }).step('approve', approvalAgent('approver').agent).build();
    const stream = build().stream('refund 42');
    const parts = await drain(stream);
    const paused = await stream.result;
    if (!isPaused(paused)) throw new Error('expected a pause');
    expect(paused.paused.question).toBe('Approve 42?');
    const source = { member: agent('approver'), agentId: 'approver', route: '' };
    expect(parts).toEqual([
      { type: 'tool_call', toolCallId: 'call-approve', toolName: 'approve', args: { amount: 42 }, ...source },
      { type: 'tool_result', toolCallId: 'call-approve', toolName: 'approve', status: 'paused', result: '', ...source },
      { type: 'end', result: paused },
    ]);

    const resumed = build().resumeStream(JSON.parse(JSON.stringify(paused.paused.checkpoint)), 'yes');
    expect(await drain(resumed)).toEqual([
      { type: 'tool_call', toolCallId: 'call-approve', toolName: 'approve', args: { amount: 42 }, ...source },
      { type: 'tool_result', toolCallId: 'call-approve', toolName: 'approve', status: 'ok', result: 'human said yes', ...source },
      text('approved: human said yes', agent('approver')),
      { type: 'end', result: expect.objectContaining({ text: 'approved: human said yes' }) },
    ]);
    expect((await resumed.result).text).toBe('approved: human said yes');
  });

  it('refuses, through the stream, a checkpoint resume() refuses', async () => {
    const top = swarm({ id: 'desk', agents: [{ id: 'approver', runner: approvalAgent('approver').agent }], pick: ({ handoffs }) => (handoffs === 0 ? 'approver' : undefined) });
    const paused = await top.run('refund 42');
    if (!isPaused(paused)) throw new Error('expected a pause');
    const stream = top.resumeStream(paused.paused.checkpoint, 'yes');
    await expect(stream.next()).rejects.toBeInstanceOf(CheckpointError);
    await expect(stream.result).rejects.toBeInstanceOf(CheckpointError);
    await expect(top.resume(paused.paused.checkpoint, 'yes')).rejects.toBeInstanceOf(CheckpointError);
  });
});
