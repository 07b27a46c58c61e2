/**
 * JSON for values nobody vetted (what a tool returns, what user code throws): cycles, BigInt,
 * functions, symbols and throwing toJSON or getters never throw; the text is whatever could be
 * written. Used for tool results and for describing a thrown non-Error.
 */
export function safeStringify(value: unknown): string {
  if (value === undefined) return '';
  // Most of what a model's arguments or a tool's result hold is one flat object of strings, numbers,
  // booleans and nulls: JSON.stringify writes the same text for it without the replacer and the cycle
  // set (about a third of the time). Anything else, or a getter that throws, takes the careful path.
  try {
    if (isFlatRecord(value)) return JSON.stringify(value);
  } catch {
    // a getter or a proxy that throws: the careful path says so in its text
  }
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

/** True for a plain object whose enumerable properties all hold a string, a number, a boolean or null. */
function isFlatRecord(value: unknown): value is Record<string, string | number | boolean | null> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) {
    const field: unknown = (value as Record<string, unknown>)[key];
    const type = typeof field;
    if (type !== 'string' && type !== 'number' && type !== 'boolean' && field !== null) return false;
  }
  return true;
}
