/**
 * A Messages usage block read into the port's TokenUsage, for a whole answer and for a stream (whose
 * counts arrive in two pieces, merged before they are read here).
 */
import type { TokenUsage } from '../../events/index.js';
import type { ProviderBoundary } from './boundary.js';
import { isRecord, reported } from './guards.js';
import { checkedUsage } from './usage.js';

/**
 * The usage block under the one usage policy (usage.ts): undefined when the response has none (or one
 * without both counts), a malformed_response when a count it has is no count. Anthropic's
 * input_tokens excludes cached tokens; the GenAI semconv's input count includes them, so input =
 * input_tokens + cache reads + cache writes, with the cache parts also given apart. Thinking tokens
 * are billed inside output_tokens and the API reports no separate count for them, so an Anthropic
 * usage never has `reasoning`.
 */
export function parseUsage(boundary: ProviderBoundary, usage: unknown, raw: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const counts = {
    input: reported(usage.input_tokens),
    output: reported(usage.output_tokens),
    cacheRead: reported(usage.cache_read_input_tokens),
    cacheWrite: reported(usage.cache_creation_input_tokens),
  };
  const usable = checkedUsage(boundary, raw, counts);
  // checkedUsage's object is new, so the cache parts join its input in place (no copy with input after a spread).
  if (usable) usable.input += (usable.cacheRead ?? 0) + (usable.cacheWrite ?? 0);
  return usable;
}
