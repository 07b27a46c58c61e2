/**
 * The fields a Chat Completions answer and its stream chunks share, read one way for both:
 * `finish_reason` normalised to the port's stop reasons, and the usage block.
 */
import type { TokenUsage } from '../../events/index.js';
import { count, isRecord, optional } from './guards.js';

const STOP_REASONS = new Map([
  ['stop', 'end_turn'],
  ['tool_calls', 'tool_use'],
  ['length', 'max_tokens'],
  ['content_filter', 'content_filter'],
]);

/** The port's stop reason for a `finish_reason`; 'unknown' when the server gave none. */
export function stopReasonOf(finish: unknown): string {
  return typeof finish === 'string' ? (STOP_REASONS.get(finish) ?? finish) : 'unknown';
}

/**
 * The usage block, or undefined when the server sent none (or one without both counts: a guess would
 * be reported as if obtained). OpenAI counts cached prompt tokens inside prompt_tokens and reasoning
 * tokens inside completion_tokens already, as the GenAI semconv wants; both are also given apart.
 */
export function parseUsage(usage: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = isRecord(usage.prompt_tokens_details) ? count(usage.prompt_tokens_details.cached_tokens) : undefined;
  const reasoning = isRecord(usage.completion_tokens_details) ? count(usage.completion_tokens_details.reasoning_tokens) : undefined;
  return { input, output, ...optional('cacheRead', cacheRead), ...optional('reasoning', reasoning) };
}
