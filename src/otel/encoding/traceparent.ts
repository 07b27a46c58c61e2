/**
 * W3C traceparent (and tracestate) for the pause checkpoint: the paused run span's context as plain
 * strings, so a resumed run in any process continues the same trace. Written here against the API
 * alone; the propagator classes live in SDK packages the bridge does not depend on.
 */
import { createTraceState, isSpanContextValid, TraceFlags, type SpanContext } from '@opentelemetry/api';

const PATTERN = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function formatTraceparent(spanContext: SpanContext): string {
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** The remote span context a traceparent names, or undefined if it is not a valid one. */
export function parseTraceparent(traceparent: unknown, tracestate?: unknown): SpanContext | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = PATTERN.exec(traceparent.trim().toLowerCase());
  if (!match) return undefined;
  const spanContext: SpanContext = {
    traceId: match[1],
    spanId: match[2],
    traceFlags: parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
    ...(typeof tracestate === 'string' && tracestate !== '' ? { traceState: createTraceState(tracestate) } : {}),
  };
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}
