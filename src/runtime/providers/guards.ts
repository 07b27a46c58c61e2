/** Shape checks shared by the providers' parsers and the reply validation. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A token count as the wire gave it: a number, else undefined (validateResponse rejects bad numbers). */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** `{ [key]: value }`, or `{}` when the value is absent: for spreading optional fields into a result. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
