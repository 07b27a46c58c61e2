/**
 * A list attribute as `why` reads it: an array, or the JSON text of one. Jaeger's span model has no
 * array values; it stores an array attribute as its JSON text, and gives that string back (as does any
 * backend that flattens arrays so), so the part table and part indexes read from Jaeger are strings.
 */
import type { FileAttributeValue } from '../telemetry/index.js';

/** Longest JSON text parsed as a list (the part table holds at most 128 short entries). */
const MAX_LIST_TEXT = 64 * 1024;

export function listOf(value: FileAttributeValue | undefined): FileAttributeValue[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string' || !value.startsWith('[') || value.length > MAX_LIST_TEXT) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number') : undefined;
  } catch {
    return undefined;
  }
}
