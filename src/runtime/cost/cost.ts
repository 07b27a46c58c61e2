/**
 * The cost of one model call: tokens times price, exactly. Input tokens include cached ones (as the
 * GenAI conventions and the providers count them), so cache reads and writes are billed at their own
 * price and only the remaining input tokens at the input price. A call whose usage the provider did
 * not report has no known cost: it is not priced (usd 0, priced false), exactly like a call to a
 * model the table lacks, and never claimed as a priced zero; so is a call whose price is no price
 * (NaN, negative) or whose cost would not be a finite number. The cost is kept in whole picodollars
 * (events/modelCalls.ts: picodollars).
 */
import { picodollars, type CallCost, type TokenUsage } from '../../events/index.js';
import { priceFor, type ModelPrice, type ModelPrices } from './pricing.js';

export type { CallCost };

/** The cost of a call without a known price or usage (a failed call has no usage). */
export const NOT_PRICED: CallCost = { usd: 0, priced: false };

/** `usage` undefined: the provider reported none, so the cost is unknown. */
export function costOf(table: ModelPrices, model: string, usage: TokenUsage | undefined): CallCost {
  const price = priceFor(table, model);
  if (!price || !usage || !isPrice(price)) return NOT_PRICED;
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const plainInput = Math.max(0, usage.input - cacheRead - cacheWrite);
  const micro =
    plainInput * price.input +
    cacheRead * (price.cacheRead ?? price.input) +
    cacheWrite * (price.cacheWrite ?? price.input) +
    usage.output * price.output;
  const usd = micro / 1_000_000;
  // finite prices of finite counts can still overflow (1e300 USD per token): no known cost, never Infinity
  return Number.isFinite(usd) ? { usd: picodollars(usd), priced: true } : NOT_PRICED;
}

/** A price whose every given field is a finite number >= 0: a NaN or negative price (a `pricing` override's typo) prices nothing. */
function isPrice(price: ModelPrice): boolean {
  return [price.input, price.output, price.cacheRead ?? 0, price.cacheWrite ?? 0].every((value) => typeof value === 'number' && Number.isFinite(value) && value >= 0);
}
