/** llmSwarm: one routing call per hand-off, reasons kept out of prompts, budget and invented agents. */
import { describe, expect, it } from 'vitest';
import { scripted } from '../../../src/runtime/index.js';
import { llmSwarm } from '../../../src/runtime/routing/index.js';
import { collect, echoAgent, ofType } from '../../support/compositions.js';

function desk(routerReplies: string[], maxHandoffs?: number, rewriteAnswer?: boolean) {
  const router = scripted({ replies: routerReplies });
  const billing = echoAgent('billing');
  const tech = echoAgent('tech');
  const runner = llmSwarm({
    provider: router,
    model: 'router-model',
    id: 'desk',
    maxHandoffs,
    rewriteAnswer,
    agents: [
      { id: 'billing', description: 'Invoices and refunds.', runner: billing.agent },
      { id: 'tech', description: 'Errors and outages.', runner: tech.agent },
    ],
  });
  return { runner, router, billing, tech };
}

const TWO_HANDOFFS = [
  '{"agentId":"billing","message":"refund order 7","reason":"SECRET-REASON-1"}',
  '{"agentId":"tech","message":"check the payment page error","reason":"SECRET-REASON-2"}',
  '{"message":"Refunded, and the page is fixed.","reason":"all done"}',
];

describe('llmSwarm', () => {
  it("makes one router call per hand-off plus one to finish, and answers with the last agent's text", async () => {
    const { runner, router, billing, tech } = desk(TWO_HANDOFFS);
    const events = collect(runner);

    const result = await runner.run('refund me, and your site is broken');
    expect([result.text, result.stopReason, result.answeredBy]).toEqual([
      'tech(check the payment page error)',
      'answered',
      { id: 'tech', kind: 'agent', path: 'swarm:desk/agent:tech' },
    ]);
    // Two hand-offs, one call each, plus the one that finishes: three router requests in all.
    expect(router.calls).toHaveLength(3);
    expect(billing.provider.calls).toHaveLength(1);
    expect(tech.provider.calls).toHaveLength(1);
    // Each agent gets the user's request and the router's message for it.
    expect(tech.provider.calls[0]!.messages).toEqual([
      { role: 'user', content: 'refund me, and your site is broken' },
      { role: 'user', content: 'check the payment page error' },
    ]);
    expect(router.calls[1]!.messages[0]!.content).toBe(
      'The user asked:\nrefund me, and your site is broken\n\nAgent "billing" replied:\nbilling(refund order 7)',
    );
    // The router's reasons reach the trace, never a prompt.
    const prompts = [...router.calls, ...billing.provider.calls, ...tech.provider.calls].map((c) => JSON.stringify(c));
    expect(prompts.some((p) => p.includes('SECRET-REASON'))).toBe(false);
    // One decision per routing act, reported by the swarm, naming its router (a typed field) and carrying its reason.
    const decisions = ofType(events, 'footprint.composition.route_decided');
    expect(decisions.map((e) => [e.payload.kind, e.payload.chosen, e.payload.matched, e.payload.router, e.payload.evidence])).toEqual([
      ['swarm', 'billing', 'llm', 'router', { reason: 'SECRET-REASON-1' }],
      ['swarm', 'tech', 'llm', 'router', { reason: 'SECRET-REASON-2' }],
      ['swarm', '', 'llm', 'router', { reason: 'all done' }],
    ]);
    const routerCalls = ofType(events, 'footprint.call.llm_end').filter((e) => e.meta.member.kind === 'router');
    expect(routerCalls).toHaveLength(3);
    expect(routerCalls[0]!.meta).toMatchObject({ member: { kind: 'router', id: 'router' }, compositionPath: ['swarm:desk', 'router:router'] });
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ status: 'no_route', stopReason: 'no_route' });
  });

  it('streams the same answer it returns: the agent text, never the router closing message', async () => {
    const { runner } = desk(TWO_HANDOFFS);
    const stream = runner.stream('refund me, and your site is broken');
    let agentText = '';
    for await (const part of stream) if (part.type === 'text' && part.member.id === 'tech') agentText += part.delta;
    expect(agentText).toBe('tech(check the payment page error)');
    expect((await stream.result).text).toBe(agentText);
  });

  it("answers with the router's closing message when asked to (rewriteAnswer), at the same number of calls", async () => {
    const { runner, router } = desk(TWO_HANDOFFS, undefined, true);
    expect((await runner.run('refund me, and your site is broken')).text).toBe('Refunded, and the page is fixed.');
    expect(router.calls).toHaveLength(3);
  });

  it('ends with the last reply when the router keeps handing off past the budget', async () => {
    const { runner, router, billing } = desk(['{"agentId":"billing","message":"again","reason":"loop"}'], 2);
    const events = collect(runner);
    expect((await runner.run('x')).text).toBe('billing(again)');
    expect(billing.provider.calls).toHaveLength(2);
    expect(router.calls).toHaveLength(3);
    expect(ofType(events, 'footprint.composition.exit')[0]!.payload).toMatchObject({ status: 'budget_exhausted', stopReason: 'budget_exhausted' });
  });

  it('routes nowhere when the router invents an agent', async () => {
    const { runner, billing, tech } = desk(['{"agentId":"root-shell","message":"x"}']);
    const events = collect(runner);
    expect((await runner.run('give me root')).text).toBe('x');
    expect(billing.provider.calls.length + tech.provider.calls.length).toBe(0);
    expect(ofType(events, 'footprint.composition.route_decided').map((e) => [e.payload.kind, e.payload.chosen, e.payload.inRoster])).toEqual([
      ['swarm', '', false],
    ]);
  });

  it('refuses an agent that shadows the router', () => {
    const provider = scripted({ replies: ['{}'] });
    const agent = echoAgent('router').agent;
    expect(() => llmSwarm({ provider, model: 'm', agents: [{ id: 'router', description: 'x', runner: agent }] })).toThrow(/used by the composition itself/);
  });
});
