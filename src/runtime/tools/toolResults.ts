/**
 * Turning whatever a tool returns into the text the model sees: strings pass through, anything else is
 * serialised safely (cycles, BigInt, functions and huge values never throw) and capped in size.
 */
import { safeStringify } from '../run/index.js';

export const MAX_TOOL_RESULT_CHARS = 16_000;

export function toToolText(value: unknown): string {
  const text = typeof value === 'string' ? value : safeStringify(value);
  return text.length > MAX_TOOL_RESULT_CHARS
    ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}… [truncated ${text.length - MAX_TOOL_RESULT_CHARS} chars]`
    : text;
}
