/** Small helpers shared by the reliability tests. */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** What a promise settled with: the value, or the rejection reason (never throws). */
export async function outcomeOf<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

export function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((s) => s.name === name);
}

export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = named(spans, name);
  if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}: ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

/** [status code, error.type] of a span, for compact assertions. */
export function failure(span: ReadableSpan): [SpanStatusCode, unknown] {
  return [span.status.code, span.attributes['error.type']];
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
