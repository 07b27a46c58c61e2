/**
 * The shipped pricing table: every row found by its own id and its listed aliases only, never by a
 * prefix; every row cited (a provider page and a day); prototype names and unknown ids unpriced, and
 * a run on such a model reports priced false, cost 0 and adds exactly 0 to footprint.llm.cost.usd.
 */
import { describe, expect, it } from 'vitest';
import { Agent, DEFAULT_PRICING, PRICING_AS_OF, priceFor, scripted } from '../../../src/index.js';
import { mergePricing } from '../../../src/runtime/cost/index.js';
import { METRICS } from '../../../src/otel/metrics/index.js';
import { collect } from '../../fixtures/collect.js';
import { meteredRuns } from '../../support/meter.js';

const ROWS = [...DEFAULT_PRICING];
const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];
const OFFICIAL_PAGES = [
  'https://developers.openai.com/api/docs/pricing',
  'https://platform.claude.com/docs/en/about-claude/pricing',
  'https://ai.google.dev/gemini-api/docs/pricing',
];

describe('the shipped table', () => {
  it('prices the models the demo and the providers use, and o3-pro and gpt-5-pro as their own rows', () => {
    expect(ROWS.map(([model]) => model)).toEqual([
      'gpt-5-pro', 'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o3-pro', 'o3', 'o4-mini',
      'claude-opus-4-5', 'claude-opus-4-1', 'claude-opus-4-0', 'claude-sonnet-4-5', 'claude-sonnet-4-0', 'claude-haiku-4-5',
      'gemini-2.5-flash', 'gemini-2.5-flash-lite',
    ]);
    const price = (model: string) => {
      const { input, output, cacheRead, cacheWrite } = priceFor(DEFAULT_PRICING, model)!;
      return { input, output, cacheRead, cacheWrite };
    };
    expect(price('o3-pro')).toEqual({ input: 20, output: 80, cacheRead: undefined, cacheWrite: undefined });
    expect(price('o3')).toEqual({ input: 2, output: 8, cacheRead: 0.5, cacheWrite: undefined });
    expect(price('gpt-5-pro')).toEqual({ input: 15, output: 120, cacheRead: undefined, cacheWrite: undefined });
    expect(price('gpt-5')).toEqual({ input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: undefined });
    expect(price('gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: undefined });
    expect(price('claude-haiku-4-5')).toEqual({ input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 });
    expect(price('claude-sonnet-4-5')).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
  });

  it('cites each row: an official pricing page and the day it was read, no later than the table', () => {
    expect(PRICING_AS_OF).toBe('2026-12-04');
    for (const [model, row] of ROWS) {
      expect(OFFICIAL_PAGES, model).toContain(row.source);
      expect(row.read, model).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(row.read <= PRICING_AS_OF, model).toBe(true);
      if (row.via !== undefined) expect(row.via, model).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\//);
      for (const field of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) {
        const value = row[field];
        if (value !== undefined) expect(Number.isFinite(value) && value >= 0, `${model} ${field}`).toBe(true);
      }
    }
  });

  it.each(ROWS)('%s resolves to its own row', (model, row) => {
    expect(priceFor(DEFAULT_PRICING, model)).toBe(row);
  });

  it.each(ROWS.flatMap(([model, row]) => row.aliases.map((alias) => [alias, model] as const)))('alias %s resolves to the %s row', (alias, model) => {
    expect(priceFor(DEFAULT_PRICING, alias)).toBe(DEFAULT_PRICING.get(model));
  });

  it('lists each alias once, never as a row id of its own', () => {
    const aliases = ROWS.flatMap(([, row]) => row.aliases);
    expect(new Set(aliases).size).toBe(aliases.length);
    expect(aliases.filter((alias) => DEFAULT_PRICING.has(alias))).toEqual([]);
  });

  it('never resolves an id to a shorter one: a longer id is its own row or unpriced', () => {
    const ids = [...DEFAULT_PRICING.keys(), ...ROWS.flatMap(([, row]) => row.aliases)];
    const longerOnes = ids.flatMap((id) => ids.filter((other) => other !== id && other.startsWith(id)).map((longer) => [id, longer] as const));
    // The pairs a longest-prefix lookup gets wrong: each longer id is answered by its own entry, never the shorter one's.
    expect(longerOnes).toEqual(expect.arrayContaining([['o3', 'o3-pro'], ['gpt-5', 'gpt-5-pro'], ['gpt-4o', 'gpt-4o-mini'], ['gpt-4.1', 'gpt-4.1-nano']]));
    const ownRow = (id: string) => DEFAULT_PRICING.get(id) ?? ROWS.find(([, row]) => row.aliases.includes(id))![1];
    for (const [shorter, longer] of longerOnes) expect(priceFor(DEFAULT_PRICING, longer), `${longer}, not ${shorter}`).toBe(ownRow(longer));
    for (const id of ids) {
      const variants = ['-pro', '-mini', '-2099-01-01', '-latest', 'x', ' '].map((suffix) => id + suffix).filter((variant) => !ids.includes(variant));
      for (const variant of variants) expect(priceFor(DEFAULT_PRICING, variant), variant).toBeUndefined();
    }
    // gpt-4o's first snapshot has its own, higher list price: it is not an alias of gpt-4o.
    expect(priceFor(DEFAULT_PRICING, 'gpt-4o-2024-05-13')).toBeUndefined();
  });

  it('prices no unknown id and no prototype name (a Map, own entries only)', () => {
    for (const model of ['my-local-model', '', 'o3-pro-max', 'GPT-4O', ...PROTOTYPE_NAMES]) {
      expect(priceFor(DEFAULT_PRICING, model), model).toBeUndefined();
      expect(priceFor(mergePricing({ 'my-model': { input: 1, output: 1 } }), model), model).toBeUndefined();
    }
  });
});

describe('the pricing option', () => {
  it('is merged over the table by exact id: overrides win, new ids are priced, a dated id still finds its row', () => {
    const merged = mergePricing({ 'gpt-4o': { input: 1, output: 2 }, 'my-model': { input: 3, output: 4 } });
    expect(priceFor(merged, 'gpt-4o')).toEqual({ input: 1, output: 2 });
    expect(priceFor(merged, 'gpt-4o-2024-08-06')).toEqual({ input: 1, output: 2 });
    expect(priceFor(merged, 'my-model')).toEqual({ input: 3, output: 4 });
    expect(priceFor(merged, 'my-model-v2')).toBeUndefined();
    expect(priceFor(merged, 'o3')).toBe(DEFAULT_PRICING.get('o3'));
  });

  it('takes the option own keys only: an inherited or __proto__-literal key prices nothing, a JSON "__proto__" key is a model id', () => {
    const inherited = Object.create({ 'ghost-model': { input: 9, output: 9 } }) as Record<string, { input: number; output: number }>;
    expect(priceFor(mergePricing(inherited), 'ghost-model')).toBeUndefined();
    expect(priceFor(mergePricing({ __proto__: { 'ghost-model': { input: 9, output: 9 } } } as never), 'ghost-model')).toBeUndefined();
    const parsed = JSON.parse('{"__proto__": {"input": 1, "output": 2}}') as Record<string, { input: number; output: number }>;
    expect(priceFor(mergePricing(parsed), '__proto__')).toEqual({ input: 1, output: 2 });
  });
});

describe('a run on a model the table does not price', () => {
  const meter = meteredRuns({});

  it.each(['constructor', 'toString', '__proto__', 'valueOf', 'o3-pro-2099', 'gpt-5-pro-max'])('%s: priced false, cost 0, and exactly 0 in footprint.llm.cost.usd', async (model) => {
    const agent = Agent.create({ provider: scripted({ replies: [{ content: 'ok', usage: { input: 1_000, output: 500 } }] }), model, id: `unpriced-${model}` }).build();
    const seen = collect(agent);
    expect((await agent.run('q')).text).toBe('ok');
    expect(seen.of('footprint.call.llm_end').map((call) => call.cost)).toEqual([{ usd: 0, priced: false }]);
    expect(seen.of('footprint.agent.turn_end')[0]).toMatchObject({ costUsd: 0 });
    const series = (await meter.collect()).series(METRICS.llmCost.name, { 'footprint.agent': `unpriced-${model}` });
    expect(series.map((s) => [s.attributes['gen_ai.request.model'], s.value])).toEqual([[model, 0]]);
  });
});
