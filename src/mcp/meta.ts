/**
 * Trace context in an MCP message's `params._meta` (SEP-414, the GenAI conventions' MCP page): the
 * configured OpenTelemetry propagators write `traceparent`, `tracestate` and `baggage` there, unprefixed,
 * and read them back on the other side. Propagators, not hand-written headers: an app that
 * configured others (B3, Jaeger) gets those keys, as it does on HTTP. NodeSDK (and startTelemetry)
 * registers W3C Trace Context and Baggage by default.
 */
import { propagation, ROOT_CONTEXT, type Context, type TextMapGetter } from '@opentelemetry/api';

type Meta = Record<string, unknown>;

const metaGetter: TextMapGetter<Meta> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** A copy of `message` whose params._meta also carries `ctx` (the message itself is never changed). */
export function withContextInMeta<M extends { params?: unknown }>(message: M, ctx: Context): M {
  const carrier: Record<string, unknown> = {};
  propagation.inject(ctx, carrier);
  if (isEmpty(carrier)) return message;
  const params = isRecord(message.params) ? message.params : {};
  // the carrier becomes the new _meta: copied into only when the request already has one
  const meta = isRecord(params._meta) ? Object.assign({}, params._meta, carrier) : carrier;
  // Object.assign, not spreads: on Node 20 a spread followed by an overriding key takes V8's slow
  // path, about twice the time of this call (bench/results/mcp.txt)
  return Object.assign({}, message, { params: Object.assign({}, params, { _meta: meta }) });
}

function isEmpty(carrier: Record<string, unknown>): boolean {
  for (const _ in carrier) return false;
  return true;
}

/** The remote context carried by `params._meta`, on top of the root context (none: the root context). */
export function contextFromMeta(params: unknown): Context {
  const meta = isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
  return meta ? propagation.extract(ROOT_CONTEXT, meta, metaGetter) : ROOT_CONTEXT;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
