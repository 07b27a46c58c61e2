/**
 * The fields an OpenAI Responses answer and its stream's last event share, read one way for both:
 * the `output` items (text of `message` items, `function_call` items; `reasoning` items carry
 * nothing the port models), the stop reason the Responses API does not name (derived from the
 * status, `incomplete_details` and the calls), and the usage block.
 */
import type { TokenUsage } from '../../events/index.js';
import type { ProviderBoundary } from './boundary.js';
import { isRecord, reported } from './guards.js';
import { checkedUsage } from './usage.js';

/**
 * The usage under the one usage policy (usage.ts). input_tokens includes the cached tokens and
 * output_tokens the reasoning tokens, as the GenAI semconv wants; both are also given apart.
 */
export function parseUsage(boundary: ProviderBoundary, usage: unknown, raw: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const input = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const output = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return checkedUsage(boundary, raw, {
    input: reported(usage.input_tokens),
    output: reported(usage.output_tokens),
    cacheRead: reported(input.cached_tokens),
    reasoning: reported(output.reasoning_tokens),
  });
}

/**
 * The port's stop reason: an incomplete response's reason (`max_output_tokens` is the port's
 * `max_tokens`), `tool_use` when the model asked for calls, `content_filter` when it `refused` (a
 * `refusal` content part), else `end_turn` for a completed one.
 */
export function stopReasonOf(response: Record<string, unknown>, calledTools: boolean, refused = false): string {
  if (response.status === 'incomplete') {
    const reason = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    if (reason === 'max_output_tokens') return 'max_tokens';
    return typeof reason === 'string' ? reason : 'incomplete';
  }
  if (calledTools) return 'tool_use';
  if (refused && response.status === 'completed') return 'content_filter';
  return response.status === 'completed' ? 'end_turn' : typeof response.status === 'string' ? response.status : 'unknown';
}
