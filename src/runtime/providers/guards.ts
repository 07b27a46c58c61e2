/** Shape checks shared by the providers' parsers and the reply validation. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number >= 0: a token count, a delay. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** A wire field as a reported value: JSON null is "not reported" (absent); anything else is kept for usage.ts to judge. */
export function reported(value: unknown): unknown {
  return value === null ? undefined : value;
}

/** `{ [key]: value }`, or `{}` when the value is absent: for spreading optional fields into a result. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** What kind of value this is, in words, without the value itself (a reply is model output: it may carry content or secrets). */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return 'infinite';
    return value < 0 ? 'a negative number' : 'a number';
  }
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return typeof value === 'object' ? 'an object' : typeof value === 'undefined' ? 'missing' : `a ${typeof value}`;
}
