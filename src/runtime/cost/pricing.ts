/**
 * The shipped pricing table: USD per million tokens, vendor list prices as published on PRICING_AS_OF
 * (standard tier, no batch discounts; Gemini Pro at its <=200k-token prompt price; open models at a
 * common hosted price). Prices change: override them per agent with `pricing`, which is merged over
 * this table. A model is matched exactly, else by the longest table key it starts with, so dated ids
 * ('gpt-4o-2024-08-06', 'claude-sonnet-4-5-20250929') find their family.
 */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export type PricingTable = Record<string, ModelPrice>;

export const PRICING_AS_OF = '2025-10-01';

export const DEFAULT_PRICING: PricingTable = {
  // OpenAI
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  // Anthropic
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  // Google
  'gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.31 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.075 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  // Open models (typical hosted prices)
  'llama-3.3-70b': { input: 0.59, output: 0.79 },
  'llama-3.1-8b': { input: 0.05, output: 0.08 },
  'deepseek-chat': { input: 0.27, output: 1.1, cacheRead: 0.07 },
  'deepseek-reasoner': { input: 0.55, output: 2.19, cacheRead: 0.14 },
  'mistral-large': { input: 2, output: 6 },
  'qwen2.5-72b': { input: 0.9, output: 0.9 },
};

/**
 * Finds a model's price: exact id first, then the longest table key the id starts with. Only the
 * table's own keys are prices: `constructor`, `toString` or `__proto__` find nothing, not an Object
 * prototype's function.
 */
export function priceFor(table: PricingTable, model: string): ModelPrice | undefined {
  const exact = Object.hasOwn(table, model) ? table[model] : undefined;
  if (exact) return exact;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

export function mergePricing(overrides: PricingTable | undefined): PricingTable {
  return overrides ? { ...DEFAULT_PRICING, ...overrides } : DEFAULT_PRICING;
}
