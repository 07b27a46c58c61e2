/** Pricing and per-call cost. */
export { DEFAULT_PRICING, PRICING_AS_OF, priceFor, mergePricing, type ModelPrice, type PricingTable } from './pricing.js';
export { costOf, type CallCost } from './cost.js';
