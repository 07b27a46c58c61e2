/**
 * The cost of one model call: tokens times price, exactly. Input tokens include cached ones (as the
 * GenAI conventions and the providers count them), so cache reads and writes are billed at their own
 * price and only the remaining input tokens at the input price. A call whose usage the provider did
 * not report has no known cost: it is not priced (usd 0, priced false), exactly like a call to a
 * model the table lacks, and never claimed as a priced zero. The cost is kept in whole picodollars
 * (events/modelCalls.ts: picodollars).
 */
import { picodollars, type CallCost, type TokenUsage } from '../../events/index.js';
import { priceFor, type ModelPrices } from './pricing.js';

export type { CallCost };

/** The cost of a call without a known price or usage (a failed call has no usage). */
export const NOT_PRICED: CallCost = { usd: 0, priced: false };

/** `usage` undefined: the provider reported none, so the cost is unknown. */
export function costOf(table: ModelPrices, model: string, usage: TokenUsage | undefined): CallCost {
  const price = priceFor(table, model);
  if (!price || !usage) return NOT_PRICED;
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const plainInput = Math.max(0, usage.input - cacheRead - cacheWrite);
  const micro =
    plainInput * price.input +
    cacheRead * (price.cacheRead ?? price.input) +
    cacheWrite * (price.cacheWrite ?? price.input) +
    usage.output * price.output;
  return { usd: picodollars(micro / 1_000_000), priced: true };
}
