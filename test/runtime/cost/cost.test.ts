import { describe, expect, it } from 'vitest';
import { Agent, scripted } from '../../../src/index.js';
import { addModelCall, noModelCalls } from '../../../src/events/index.js';
import { costOf } from '../../../src/runtime/cost/index.js';
import { collect } from '../../fixtures/collect.js';

describe('cost', () => {
  it('bills tokens times price exactly, cache reads and writes at their own price', () => {
    const table = new Map([['m', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }]]);
    const cost = costOf(table, 'm', { input: 1_000_000, output: 200_000, cacheRead: 400_000, cacheWrite: 100_000 });
    expect(cost).toEqual({ usd: 1.5 + 0.12 + 0.375 + 3, priced: true });
    expect(costOf(table, 'unknown', { input: 10, output: 10 })).toEqual({ usd: 0, priced: false });
  });

  it('keeps a cost in whole picodollars: it prints as the price list would, not as binary residue', () => {
    // 63 input and 67 output tokens at $0.15 and $0.60 per million: 49.65 micro-dollars, which floating point makes 0.000049649999999999994.
    expect((63 * 0.15 + 67 * 0.6) / 1_000_000).toBe(0.000049649999999999994);
    const cost = costOf(new Map([['gpt-4o-mini', { input: 0.15, output: 0.6 }]]), 'gpt-4o-mini', { input: 63, output: 67 });
    expect(cost).toEqual({ usd: 0.00004965, priced: true });
    expect(String(cost.usd)).toBe('0.00004965');
    // A sum of costs is kept at the same grain: 0.1 + 0.2 of a dollar adds up to 0.3, not 0.30000000000000004.
    const totals = addModelCall(addModelCall(noModelCalls(), { cost: { usd: 0.1, priced: true } }), { cost: { usd: 0.2, priced: true } });
    expect(totals.costUsd).toBe(0.3);
  });

  it('does not price a call whose usage is unknown (not a priced zero)', () => {
    expect(costOf(new Map([['m', { input: 3, output: 15 }]]), 'm', undefined)).toEqual({ usd: 0, priced: false });
  });

  it('a reply without usage: its llm_end carries no usage and an unpriced cost, the turn adds no tokens but counts the call', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'noop' }], usage: { input: 100, output: 10 } }, { content: 'done', usage: null }] });
    const agent = Agent.create({ provider, model: 'gpt-4o', id: 'billing', pricing: { 'gpt-4o': { input: 1, output: 2 } } })
      .tool({ name: 'noop', description: 'does nothing', inputSchema: { type: 'object' }, execute: () => 'ok' })
      .build();
    const seen = collect(agent);
    expect((await agent.run('q')).text).toBe('done');
    expect(seen.of('footprint.call.llm_end').map((p) => ['usage' in p, p.usage, p.cost, p.stopReason])).toEqual([
      [true, { input: 100, output: 10 }, { usd: (100 * 1 + 10 * 2) / 1e6, priced: true }, 'tool_use'],
      [false, undefined, { usd: 0, priced: false }, 'end_turn'],
    ]);
    // No cache counts were reported, so the turn's totals have none (not zeros).
    expect(seen.of('footprint.agent.turn_end')[0]).toMatchObject({ tokens: { input: 100, output: 10 }, costUsd: (100 * 1 + 10 * 2) / 1e6, llmCalls: 2 });
    expect(Object.keys(seen.of('footprint.agent.turn_end')[0]!.tokens)).toEqual(['input', 'output']);
  });

  it("puts each call's cost on its record with agent, turn and brain, using per-agent pricing over the table", async () => {
    const provider = scripted({ replies: [{ content: 'x', usage: { input: 2_000, output: 1_000 } }] });
    const agent = Agent.create({ provider, model: 'gpt-4o', id: 'billing', pricing: { 'gpt-4o': { input: 1, output: 2 } } }).build();
    const seen = collect(agent);
    await agent.run('q');
    const turnId = seen.of('footprint.agent.turn_start')[0]!.turnId;
    expect(seen.of('footprint.call.llm_end')[0]).toMatchObject({
      agentId: 'billing',
      turnId,
      model: 'gpt-4o',
      provider: 'scripted',
      brain: { via: 'default', provider: 'scripted', model: 'gpt-4o' },
      cost: { usd: (2_000 * 1 + 1_000 * 2) / 1e6, priced: true },
    });
    expect(seen.of('footprint.call.llm_end')[0]!.skill).toBeUndefined();
    expect(seen.events.find((e) => e.type === 'footprint.call.llm_end')!.meta.route).toBe('');
  });

});
