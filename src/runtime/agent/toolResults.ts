/**
 * Turning whatever a tool returns into the text the model sees: strings pass through, anything else is
 * serialised safely (cycles, BigInt, functions and huge values never throw) and capped in size.
 */
export const MAX_TOOL_RESULT_CHARS = 16_000;

export function toToolText(value: unknown): string {
  const text = typeof value === 'string' ? value : safeStringify(value);
  return text.length > MAX_TOOL_RESULT_CHARS
    ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}… [truncated ${text.length - MAX_TOOL_RESULT_CHARS} chars]`
    : text;
}

export function safeStringify(value: unknown): string {
  if (value === undefined) return '';
  const seen = new WeakSet<object>();
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[circular]';
        seen.add(v);
      }
      return v;
    });
    return text ?? String(value);
  } catch (error) {
    return `[unserializable: ${(error as Error).message}]`;
  }
}
