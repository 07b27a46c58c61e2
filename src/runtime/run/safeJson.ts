/**
 * JSON for values nobody vetted (what a tool returns, what user code throws): cycles, BigInt,
 * functions, symbols and throwing toJSON or getters never throw; the text is whatever could be
 * written. Used for tool results and for describing a thrown non-Error.
 */
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
