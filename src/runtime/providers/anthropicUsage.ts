/**
 * A Messages usage block read into the port's TokenUsage, for a whole answer and for a stream (whose
 * counts arrive in two pieces, merged before they are read here).
 */
import type { TokenUsage } from '../../events/index.js';
import { count, isRecord, optional } from './guards.js';

/**
 * The usage block, or undefined when the response has none (or one without both counts: a guess
 * would be reported as if obtained). Anthropic's input_tokens excludes cached tokens; the GenAI
 * semconv's input count includes them, so input = input_tokens + cache reads + cache writes, with
 * the cache parts also given apart. Thinking tokens are billed inside output_tokens and the API
 * reports no separate count for them, so an Anthropic usage never has `reasoning`.
 */
export function parseUsage(usage: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const uncachedInput = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  if (uncachedInput === undefined || output === undefined) return undefined;
  const cacheRead = count(usage.cache_read_input_tokens);
  const cacheWrite = count(usage.cache_creation_input_tokens);
  return {
    input: uncachedInput + (cacheRead ?? 0) + (cacheWrite ?? 0),
    output,
    ...optional('cacheRead', cacheRead),
    ...optional('cacheWrite', cacheWrite),
  };
}
