/**
 * cost/ — pricing and per-call cost. Depends on events/ (token usage) only; no other runtime folder.
 */
export {
  DEFAULT_PRICING,
  PRICING_AS_OF,
  priceFor,
  mergePricing,
  type ModelPrice,
  type ModelPrices,
  type PricingTable,
  type PublishedPrice,
} from './pricing.js';
export { costOf, NOT_PRICED, type CallCost } from './cost.js';
