/**
 * The shipped pricing table: USD per million tokens, each row the provider's published standard-tier
 * list price (no batch, flex or priority discounts), with the page it was read from and the day.
 * A model is found by its exact id, or by one of the ids its provider serves the same model under
 * (a dated snapshot: 'gpt-4o-2024-08-06', 'claude-sonnet-4-5-20250929'), listed on its row. Any
 * other id is unpriced, never guessed from a shorter id: 'o3-pro' costs ten times 'o3'. A model whose
 * price depends on the prompt's length (Gemini 2.5 Pro, Claude Haiku 5.5) has no row: one number
 * would be wrong for one of its tiers. Prices change: an agent's `pricing` option is merged over
 * this table, by exact id.
 */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** The `pricing` option: model id -> price, merged over the shipped table (own properties only). */
export type PricingTable = Record<string, ModelPrice>;

/** Model id -> price, as the runtime looks prices up: a Map, so no inherited name is ever a price. */
export type ModelPrices = ReadonlyMap<string, ModelPrice>;

/** A row of the shipped table: the price and where to check it. */
export interface PublishedPrice extends ModelPrice {
  /** The provider's page the price was read from. */
  readonly source: string;
  /** The day it was read, YYYY-MM-DD. */
  readonly read: string;
  /** The dated record of that read, when it was not read on the page itself that day. */
  readonly via?: string;
  /** Other ids the provider serves this same model under, at this price (dated snapshots). */
  readonly aliases: readonly string[];
}

/** The day the table was last assembled; each row says when its own price was read. */
export const PRICING_AS_OF = '2026-12-04';

const OPENAI = {
  source: 'https://developers.openai.com/api/docs/pricing',
  read: '2026-08-18',
  via: 'https://github.com/anuran-roy/unified-llm-pricing/blob/26a34b308413d7cf1b9c461cf5716ab4140e0fb1/data/pricing.json',
} as const;
const ANTHROPIC = { source: 'https://platform.claude.com/docs/en/about-claude/pricing', read: '2026-12-04' } as const;
const GOOGLE = {
  source: 'https://ai.google.dev/gemini-api/docs/pricing',
  read: '2026-08-18',
  via: 'https://github.com/anuran-roy/unified-llm-pricing/blob/26a34b308413d7cf1b9c461cf5716ab4140e0fb1/data/pricing.json',
} as const;

const ROWS: ReadonlyArray<readonly [string, PublishedPrice]> = [
  // OpenAI (text tokens, standard tier)
  ['gpt-5-pro', { input: 15, output: 120, ...OPENAI, aliases: ['gpt-5-pro-2025-10-06'] }],
  ['gpt-5', { input: 1.25, output: 10, cacheRead: 0.125, ...OPENAI, aliases: ['gpt-5-2025-08-07'] }],
  ['gpt-5-mini', { input: 0.25, output: 2, cacheRead: 0.025, ...OPENAI, aliases: ['gpt-5-mini-2025-08-07'] }],
  ['gpt-5-nano', { input: 0.05, output: 0.4, cacheRead: 0.005, ...OPENAI, aliases: ['gpt-5-nano-2025-08-07'] }],
  ['gpt-4.1', { input: 2, output: 8, cacheRead: 0.5, ...OPENAI, aliases: ['gpt-4.1-2025-04-14'] }],
  ['gpt-4.1-mini', { input: 0.4, output: 1.6, cacheRead: 0.1, ...OPENAI, aliases: ['gpt-4.1-mini-2025-04-14'] }],
  ['gpt-4.1-nano', { input: 0.1, output: 0.4, cacheRead: 0.025, ...OPENAI, aliases: ['gpt-4.1-nano-2025-04-14'] }],
  // 'gpt-4o-2024-05-13' is listed at its own, higher price: not an alias.
  ['gpt-4o', { input: 2.5, output: 10, cacheRead: 1.25, ...OPENAI, aliases: ['gpt-4o-2024-08-06', 'gpt-4o-2024-11-20'] }],
  ['gpt-4o-mini', { input: 0.15, output: 0.6, cacheRead: 0.075, ...OPENAI, aliases: ['gpt-4o-mini-2024-07-18'] }],
  ['o3-pro', { input: 20, output: 80, ...OPENAI, aliases: ['o3-pro-2025-06-10'] }],
  ['o3', { input: 2, output: 8, cacheRead: 0.5, ...OPENAI, aliases: ['o3-2025-04-16'] }],
  ['o4-mini', { input: 1.1, output: 4.4, cacheRead: 0.275, ...OPENAI, aliases: ['o4-mini-2025-04-16'] }],
  // Anthropic (cache writes at the 5-minute price, cache hits as cache reads)
  ['claude-opus-4-5', { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, ...ANTHROPIC, aliases: ['claude-opus-4-5-20251101'] }],
  ['claude-opus-4-1', { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, ...ANTHROPIC, aliases: ['claude-opus-4-1-20250805'] }],
  ['claude-opus-4-0', { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, ...ANTHROPIC, aliases: ['claude-opus-4-20250514'] }],
  ['claude-sonnet-4-5', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, ...ANTHROPIC, aliases: ['claude-sonnet-4-5-20250929'] }],
  ['claude-sonnet-4-0', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, ...ANTHROPIC, aliases: ['claude-sonnet-4-20250514'] }],
  ['claude-haiku-4-5', { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25, ...ANTHROPIC, aliases: ['claude-haiku-4-5-20251001'] }],
  // Google (text / image / video input; cache reads at the context-caching price, storage not included)
  ['gemini-2.5-flash', { input: 0.3, output: 2.5, cacheRead: 0.03, ...GOOGLE, aliases: [] }],
  ['gemini-2.5-flash-lite', { input: 0.1, output: 0.4, cacheRead: 0.01, ...GOOGLE, aliases: [] }],
];

/** The shipped table by model id. */
export const DEFAULT_PRICING: ReadonlyMap<string, PublishedPrice> = new Map(ROWS);

/** Every listed alias -> the model id of its row. */
const ALIASES: ReadonlyMap<string, string> = new Map(ROWS.flatMap(([model, row]) => row.aliases.map((alias) => [alias, model] as const)));

/**
 * A model's price: its exact id first (an override of the dated id itself wins), else the row a
 * listed alias names. Anything else, a longer or shorter id included, is undefined (unpriced).
 */
export function priceFor(table: ModelPrices, model: string): ModelPrice | undefined {
  const exact = table.get(model);
  if (exact) return exact;
  const aliased = ALIASES.get(model);
  return aliased === undefined ? undefined : table.get(aliased);
}

/** The shipped table with an agent's `pricing` over it (the option's own enumerable keys only). */
export function mergePricing(overrides: PricingTable | undefined): ModelPrices {
  return overrides ? new Map<string, ModelPrice>([...DEFAULT_PRICING, ...Object.entries(overrides)]) : DEFAULT_PRICING;
}
