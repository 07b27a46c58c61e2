// A transparent OTLP/HTTP proxy between the app and the real collector that keeps a ledger of every
// span the app sent (the app must send OTLP/JSON: TAP_PROTOCOL_ENV; a protobuf body is refused with
// 415, never forwarded unrecorded): the ground truth the real-stack tests compare
// Jaeger's traces and the tail sampler's decisions with. Of the metric exports it reads the metric
// names and any data point attribute whose value is the empty string (which a Thanos receiver refuses). Requests are forwarded byte for byte; the
// collector's answer (or a 503 when it is down) goes back to the app unchanged, so the app sees
// exactly what it would see without the tap.
import http from 'node:http';
import type net from 'node:net';

export interface TappedSpan {
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  events: string[];
  /** Each event's attributes (same order as events), as plain values. */
  eventAttributes: Array<Record<string, string | boolean | number>>;
  /** String, bool and int attributes, as plain values. */
  attributes: Record<string, string | boolean | number>;
  /** The spans this span links to, as `<traceId>/<spanId>`, in order. */
  links: string[];
}

export interface TappedTrace {
  traceId: string;
  serviceName: string;
  /** When the collector accepted this trace's first span (ms since epoch). */
  firstAcceptedAt: number;
  spans: TappedSpan[];
}

export interface OtlpTap {
  url: string;
  traces(): Map<string, TappedTrace>;
  /** The names of the metrics in the OTLP/JSON metric exports the collector accepted, sorted. */
  metricNames(): string[];
  /** `<metric> <attribute>` for each data point attribute of those exports whose value was '', in arrival order. */
  emptyMetricAttributes(): string[];
  /** When the last trace request arrived (ms since epoch), 0 before the first. */
  lastTraceAt(): number;
  /** Requests forwarded, by path and answer status (e.g. "/v1/traces 200"). */
  requests(): Record<string, number>;
  close(): Promise<void>;
}

type OtlpValue = { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number };
interface OtlpJsonTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        status?: { code?: number };
        events?: Array<{ name: string; attributes?: Array<{ key: string; value: OtlpValue }> }>;
        attributes?: Array<{ key: string; value: OtlpValue }>;
        links?: Array<{ traceId: string; spanId: string }>;
      }>;
    }>;
  }>;
}

type OtlpDataPoints = { dataPoints?: Array<{ attributes?: Array<{ key: string; value: OtlpValue }> }> };
interface OtlpJsonMetrics {
  resourceMetrics?: Array<{
    scopeMetrics?: Array<{
      metrics?: Array<{ name: string; sum?: OtlpDataPoints; gauge?: OtlpDataPoints; histogram?: OtlpDataPoints; exponentialHistogram?: OtlpDataPoints; summary?: OtlpDataPoints }>;
    }>;
  }>;
}

function plain(value: OtlpValue): string | boolean | number | undefined {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.doubleValue;
}

function attributes(list: Array<{ key: string; value: OtlpValue }> = []): Record<string, string | boolean | number> {
  const out: Record<string, string | boolean | number> = {};
  for (const { key, value } of list) {
    const v = plain(value);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** The environment an app needs to send through the tap: OTLP/JSON (the SDK's default is http/protobuf). */
export const TAP_PROTOCOL_ENV = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } as const;

/** Starts the tap on 127.0.0.1; `upstream` is the collector's OTLP/HTTP base URL (http://127.0.0.1:PORT). */
export async function startOtlpTap(upstream: () => string): Promise<OtlpTap> {
  const traces = new Map<string, TappedTrace>();
  const requests: Record<string, number> = {};
  let lastTraceAt = 0;
  const metricNames = new Set<string>();
  const emptyMetricAttributes: string[] = [];

  const recordMetrics = (body: Buffer) => {
    const doc = JSON.parse(body.toString('utf8')) as OtlpJsonMetrics;
    for (const sm of (doc.resourceMetrics ?? []).flatMap((rm) => rm.scopeMetrics ?? [])) {
      for (const m of sm.metrics ?? []) {
        metricNames.add(m.name);
        const points = (m.sum ?? m.gauge ?? m.histogram ?? m.exponentialHistogram ?? m.summary)?.dataPoints ?? [];
        for (const point of points) {
          for (const { key, value } of point.attributes ?? []) if (value.stringValue === '') emptyMetricAttributes.push(`${m.name} ${key}`);
        }
      }
    }
  };

  const record = (body: Buffer) => {
    const doc = JSON.parse(body.toString('utf8')) as OtlpJsonTraces;
    for (const rs of doc.resourceSpans ?? []) {
      const serviceName = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          let trace = traces.get(s.traceId);
          if (!trace) traces.set(s.traceId, (trace = { traceId: s.traceId, serviceName, firstAcceptedAt: Date.now(), spans: [] }));
          trace.spans.push({
            spanId: s.spanId,
            parentSpanId: s.parentSpanId ?? '',
            name: s.name,
            statusCode: s.status?.code ?? 0,
            events: (s.events ?? []).map((e) => e.name),
            eventAttributes: (s.events ?? []).map((e) => attributes(e.attributes)),
            attributes: attributes(s.attributes),
            links: (s.links ?? []).map((l) => `${l.traceId}/${l.spanId}`),
          });
        }
      }
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const answer = (status: number, payload: Buffer | string, contentType = 'text/plain') => {
        requests[`${path} ${status}`] = (requests[`${path} ${status}`] ?? 0) + 1;
        res.writeHead(status, { 'content-type': contentType }).end(payload);
      };
      if (path === '/v1/traces' && !String(req.headers['content-type']).startsWith('application/json')) {
        answer(415, 'the OTLP tap reads OTLP/JSON only: run the app with TAP_PROTOCOL_ENV');
        return;
      }
      fetch(upstream() + path, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body,
        signal: AbortSignal.timeout(10_000),
      }).then(
        async (upstreamRes) => {
          // Only what the collector accepted is in the ledger: a refused request is the app's to retry.
          if (path === '/v1/traces' && upstreamRes.ok) {
            record(body);
            lastTraceAt = Date.now();
          }
          if (path === '/v1/metrics' && upstreamRes.ok && String(req.headers['content-type']).startsWith('application/json')) recordMetrics(body);
          answer(upstreamRes.status, Buffer.from(await upstreamRes.arrayBuffer()), upstreamRes.headers.get('content-type') ?? 'text/plain');
        },
        () => answer(503, 'collector unreachable'),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    traces: () => traces,
    metricNames: () => [...metricNames].sort(),
    emptyMetricAttributes: () => [...emptyMetricAttributes],
    lastTraceAt: () => lastTraceAt,
    requests: () => ({ ...requests }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Why the tail sampler must keep a trace (its keep policies), or undefined for a clean trace. */
export function mustKeepReason(trace: TappedTrace): 'error' | 'trip' | 'escalation' | undefined {
  if (trace.spans.some((s) => s.statusCode === 2)) return 'error';
  if (trace.spans.some((s) => s.attributes['footprint.trip.kinds'] !== undefined || s.events.includes('footprint.loop_guard.trip'))) return 'trip';
  if (trace.spans.some((s) => s.attributes['footprint.escalated'] === true || s.events.includes('footprint.skill.escalated'))) return 'escalation';
  return undefined;
}
