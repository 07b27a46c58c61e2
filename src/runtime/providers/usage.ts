/**
 * The one usage policy, for every provider (the HTTP adapters at their boundary, scripted replies
 * when they are made, any reply where it enters the runtime: validateResponse.ts):
 *
 * - a count that is absent was not reported: a usage without its input or output count is no usage
 *   (unknown, never a guess or a 0 passed off as reported), and an optional count stays absent;
 * - a count that is present must be a finite number >= 0 and at most 2^53 - 1, or the reply is
 *   malformed (a negative token count or NaN would become a negative cost and a broken series
 *   downstream; 1.7e308 an infinite one).
 *
 * The HTTP parsers translate the wire's usage block into these fields (a JSON null is absent) and
 * judge them here (checkedUsage), so a bad count on the wire fails exactly as one from a custom
 * provider does, with the same words.
 */
import type { TokenUsage } from '../../events/index.js';
import type { ProviderBoundary } from './boundary.js';
import { isCount, kindOf, optional } from './guards.js';

const COUNTS = ['input', 'output', 'cacheRead', 'cacheWrite', 'reasoning'] as const;

/**
 * The largest count taken: 2^53 - 1, past every real reply by nine orders of magnitude. A finite count
 * above it (1.7e308) would make sums, costs and metric points infinite, so it is a malformed reply.
 */
const MAX_TOKEN_COUNT = Number.MAX_SAFE_INTEGER;

/** The counts as a provider gave them, not yet checked. */
export type ReportedUsage = { [K in keyof TokenUsage]?: unknown };

/** The usage the counts make (undefined: not reported), or why they are no usage (a present count that is no count). */
export function readUsage(counts: ReportedUsage): { usage?: TokenUsage; problem?: string } {
  for (const field of COUNTS) {
    const value = counts[field];
    if (value !== undefined && !isCount(value)) return { problem: `usage.${field} is ${kindOf(value)}, not a finite number >= 0` };
    if (typeof value === 'number' && value > MAX_TOKEN_COUNT) return { problem: `usage.${field} is ${value}, past the largest token count (${MAX_TOKEN_COUNT})` };
  }
  const { input, output, cacheRead, cacheWrite, reasoning } = counts as Partial<TokenUsage>;
  if (input === undefined || output === undefined) return {};
  return { usage: { input, output, ...optional('cacheRead', cacheRead), ...optional('cacheWrite', cacheWrite), ...optional('reasoning', reasoning) } };
}

/** The HTTP adapters' reading: the usage, or a malformed_response from their boundary carrying the body. */
export function checkedUsage(boundary: ProviderBoundary, raw: unknown, counts: ReportedUsage): TokenUsage | undefined {
  const read = readUsage(counts);
  if (read.problem !== undefined) throw boundary.malformed(read.problem, raw);
  return read.usage;
}
