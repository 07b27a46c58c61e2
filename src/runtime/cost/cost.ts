/**
 * The cost of one model call: tokens times price, exactly. Input tokens include cached ones (as the
 * GenAI conventions and the providers count them), so cache reads and writes are billed at their own
 * price and only the remaining input tokens at the input price.
 */
import type { TokenUsage } from '../../events/index.js';
import { priceFor, type PricingTable } from './pricing.js';

export interface CallCost {
  usd: number;
  /** False when the model is not in the table: the call is recorded with cost 0. */
  priced: boolean;
}

export function costOf(table: PricingTable, model: string, usage: TokenUsage): CallCost {
  const price = priceFor(table, model);
  if (!price) return { usd: 0, priced: false };
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const plainInput = Math.max(0, usage.input - cacheRead - cacheWrite);
  const micro =
    plainInput * price.input +
    cacheRead * (price.cacheRead ?? price.input) +
    cacheWrite * (price.cacheWrite ?? price.input) +
    usage.output * price.output;
  return { usd: micro / 1_000_000, priced: true };
}
