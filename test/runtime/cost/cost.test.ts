import { describe, expect, it } from 'vitest';
import { Agent, DEFAULT_PRICING, PRICING_AS_OF, priceFor, scripted } from '../../../src/index.js';
import { costOf } from '../../../src/runtime/cost/index.js';
import { collect } from '../../fixtures/collect.js';

describe('cost', () => {
  it('ships a dated table covering OpenAI, Anthropic, Google and open models', () => {
    expect(PRICING_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const model of ['gpt-4o', 'gpt-5-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'llama-3.3-70b', 'deepseek-chat']) {
      expect(Object.keys(DEFAULT_PRICING[model] ?? {}).sort(), model).toEqual(expect.arrayContaining(['input', 'output']));
    }
  });

  it('matches dated model ids to their family by longest prefix', () => {
    expect(priceFor(DEFAULT_PRICING, 'gpt-4o-mini-2024-07-18')).toBe(DEFAULT_PRICING['gpt-4o-mini']);
    expect(priceFor(DEFAULT_PRICING, 'claude-sonnet-4-5-20250929')).toBe(DEFAULT_PRICING['claude-sonnet-4-5']);
    expect(priceFor(DEFAULT_PRICING, 'my-local-model')).toBeUndefined();
  });

  it('bills tokens times price exactly, cache reads and writes at their own price', () => {
    const table = { m: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
    const cost = costOf(table, 'm', { input: 1_000_000, output: 200_000, cacheRead: 400_000, cacheWrite: 100_000 });
    expect(cost).toEqual({ usd: 500_000 * 3e-6 + 400_000 * 0.3e-6 + 100_000 * 3.75e-6 + 200_000 * 15e-6, priced: true });
    expect(costOf(table, 'unknown', { input: 10, output: 10 })).toEqual({ usd: 0, priced: false });
  });

  it('does not price a call whose usage is unknown (not a priced zero)', () => {
    expect(costOf({ m: { input: 3, output: 15 } }, 'm', undefined)).toEqual({ usd: 0, priced: false });
  });

  it('a reply without usage: its llm_end carries no usage and an unpriced cost, the turn adds no tokens but counts the call', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'noop' }], usage: { input: 100, output: 10 } }, { content: 'done', usage: null }] });
    const agent = Agent.create({ provider, model: 'gpt-4o', id: 'billing', pricing: { 'gpt-4o': { input: 1, output: 2 } } })
      .tool({ name: 'noop', description: 'does nothing', inputSchema: { type: 'object' }, execute: () => 'ok' })
      .build();
    const seen = collect(agent);
    expect((await agent.run('q')).text).toBe('done');
    expect(seen.of('footprint.stream.llm_end').map((p) => ['usage' in p, p.usage, p.cost, p.stopReason])).toEqual([
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
    expect(seen.of('footprint.stream.llm_end')[0]).toMatchObject({
      agentId: 'billing',
      turnId,
      model: 'gpt-4o',
      provider: 'scripted',
      brain: { via: 'default', provider: 'scripted', model: 'gpt-4o' },
      cost: { usd: (2_000 * 1 + 1_000 * 2) / 1e6, priced: true },
    });
    expect(seen.of('footprint.stream.llm_end')[0]!.skill).toBeUndefined();
    expect(seen.events.find((e) => e.type === 'footprint.stream.llm_end')!.meta.route).toBe('');
  });

});
