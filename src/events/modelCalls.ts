/**
 * The one way model calls add up. A model call is one `footprint.call.llm_end` record: every call
 * the runtime sent that ended, answered or failed. Its usage, cost, skill and brain travel in that
 * record only, so every total made of them (an agent turn's, the run span's, the demo summary's) is
 * this fold over the same records and cannot disagree with another: same call count, same tokens,
 * same cost. A count the provider did not report stays unreported in the total (absent, never a 0
 * that would later read as "reported zero"); a total has a cache or reasoning count as soon as one
 * call of it reported one.
 */
import type { EventPayloads, TokenUsage } from './catalog.js';

/** The record of one model call (the payload of footprint.call.llm_end). */
export type ModelCallRecord = EventPayloads['footprint.call.llm_end'];

/** What a set of model calls spent: how many there were, the tokens they reported, their priced cost. */
export interface ModelCallTotals {
  /** Every call that ended, failed ones included. */
  llmCalls: number;
  /** The sum of the usage the calls reported (a call without a report adds nothing). */
  tokens: TokenUsage;
  /** The sum of the calls' `cost.usd` (an unpriced call adds 0). */
  costUsd: number;
}

export function noModelCalls(): ModelCallTotals {
  return { llmCalls: 0, tokens: { input: 0, output: 0 }, costUsd: 0 };
}

/** `totals` with one more call, as a new value (plain JSON): a turn record and the run roll-ups both keep totals this way. */
export function addModelCall(totals: ModelCallTotals, call: Pick<ModelCallRecord, 'usage' | 'cost'>): ModelCallTotals {
  return {
    llmCalls: totals.llmCalls + 1,
    tokens: call.usage ? addUsage(totals.tokens, call.usage) : totals.tokens,
    costUsd: picodollars(totals.costUsd + (Number.isFinite(call.cost.usd) ? call.cost.usd : 0)),
  };
}

/**
 * `usd` rounded to whole picodollars (1e-12 USD), the grain every cost is kept at: a call's cost
 * where it is computed and every sum of them, so a cost prints as the price list would
 * (0.00004965, not 0.000049649999999999994) and adding costs leaves no binary residue.
 */
export function picodollars(usd: number): number {
  return Math.round(usd * 1e12) / 1e12;
}

/** Two usages added: input and output always, each optional count only when one of them has it. */
function addUsage(total: TokenUsage, usage: TokenUsage): TokenUsage {
  return {
    input: total.input + usage.input,
    output: total.output + usage.output,
    ...sum('cacheRead', total, usage),
    ...sum('cacheWrite', total, usage),
    ...sum('reasoning', total, usage),
  };
}

function sum(field: 'cacheRead' | 'cacheWrite' | 'reasoning', a: TokenUsage, b: TokenUsage): Partial<TokenUsage> {
  if (a[field] === undefined && b[field] === undefined) return {};
  return { [field]: (a[field] ?? 0) + (b[field] ?? 0) };
}
