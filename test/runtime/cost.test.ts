import { describe, expect, it } from 'vitest';
import { Agent, DEFAULT_PRICING, PRICING_AS_OF, priceFor, scripted } from '../../src/index.js';
import { costOf } from '../../src/runtime/cost/index.js';
import { collect } from '../fixtures/collect.js';

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

  it('a reply without usage: llm_end and cost.tick carry no tokens, the tick is not priced, the turn adds nothing', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'noop' }], usage: { input: 100, output: 10 } }, { content: 'done', usage: null }] });
    const agent = Agent.create({ provider, model: 'gpt-4o', id: 'billing', pricing: { 'gpt-4o': { input: 1, output: 2 } } })
      .tool({ name: 'noop', description: 'does nothing', inputSchema: { type: 'object' }, execute: () => 'ok' })
      .build();
    const seen = collect(agent);
    expect(await agent.run('q')).toBe('done');
    expect(seen.of('footprint.stream.llm_end').map((p) => ['usage' in p, p.usage, p.stopReason])).toEqual([
      [true, { input: 100, output: 10 }, 'tool_use'],
      [false, undefined, 'end_turn'],
    ]);
    expect(seen.of('footprint.cost.tick').map((p) => ({ tokens: p.tokens, usd: p.usd, priced: p.priced }))).toEqual([
      { tokens: { input: 100, output: 10 }, usd: (100 * 1 + 10 * 2) / 1e6, priced: true },
      { tokens: undefined, usd: 0, priced: false },
    ]);
    expect('tokens' in seen.of('footprint.cost.tick')[1]!).toBe(false);
    expect(seen.of('footprint.agent.turn_end')[0]).toMatchObject({ tokens: { input: 100, output: 10 }, llmCalls: 2 });
  });

  it('emits each call cost with agent and skill, using per-agent pricing over the table', async () => {
    const provider = scripted({ replies: [{ content: 'x', usage: { input: 2_000, output: 1_000 } }] });
    const agent = Agent.create({ provider, model: 'gpt-4o', id: 'billing', pricing: { 'gpt-4o': { input: 1, output: 2 } } }).build();
    const seen = collect(agent);
    await agent.run('q');
    expect(seen.of('footprint.cost.tick')[0]).toMatchObject({
      agentId: 'billing',
      model: 'gpt-4o',
      provider: 'scripted',
      skill: '',
      brain: 'default',
      usd: (2_000 * 1 + 1_000 * 2) / 1e6,
      priced: true,
    });
    expect(seen.events.find((e) => e.type === 'footprint.cost.tick')!.meta.route).toBe('');
  });
});
