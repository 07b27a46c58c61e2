/**
 * A stand-in OTLP/HTTP collector on 127.0.0.1 that can be switched between answering 200, 500,
 * 429 (Retry-After: 0, so the exporter's retries run at once) and slowly (after 5 s), and stopped
 * and restarted on the same port. It decodes the spans of
 * every trace export it accepts (OTLP JSON), keeps only counts for the others (so a slow or failing
 * collector holds no bodies), and knows which requests are still waiting for an answer.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Mode = 'ok' | '500' | '429' | 'slow';

/** How long a slow collector takes to answer. */
export const SLOW_MS = 5_000;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, string | number | boolean>;
}

export interface Collector {
  url: string;
  mode: Mode;
  /** Spans of the trace exports answered 200. */
  spans: ReceivedSpan[];
  /** Requests received, by signal and mode. */
  counts: Record<string, number>;
  /** Slow requests answered so far (after SLOW_MS). */
  slowAnswered: number;
  /** Ids of requests (of one signal) received and not yet answered or closed by the client. */
  pending(signal?: 'traces' | 'metrics'): Set<number>;
  count(signal: 'traces' | 'metrics', mode?: Mode): number;
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

export async function startCollector(): Promise<Collector> {
  let server: Server | undefined;
  let nextId = 0;
  const open = new Map<number, { res: ServerResponse; signal: 'traces' | 'metrics'; timer?: NodeJS.Timeout }>();

  const collector: Collector = {
    url: '',
    mode: 'ok',
    spans: [],
    counts: {},
    slowAnswered: 0,
    pending: (signal) => new Set([...open].filter(([, r]) => signal === undefined || r.signal === signal).map(([id]) => id)),
    count: (signal, mode) =>
      Object.entries(collector.counts)
        .filter(([key]) => key.startsWith(`${signal}:`) && (mode === undefined || key === `${signal}:${mode}`))
        .reduce((sum, [, n]) => sum + n, 0),
    async stop() {
      if (!server) return;
      const closing = server;
      server = undefined;
      for (const { res, timer } of open.values()) {
        clearTimeout(timer);
        res.destroy();
      }
      open.clear();
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    restart: () => listen(Number(new URL(collector.url).port)),
  };

  const listen = async (port: number) => {
    server = createServer((req, res) => {
      const id = nextId++;
      const signal = req.url === '/v1/traces' ? 'traces' : 'metrics';
      const mode = collector.mode;
      const json = req.headers['content-type'] === 'application/json';
      const chunks: Buffer[] = [];
      open.set(id, { res, signal });
      res.on('close', () => {
        clearTimeout(open.get(id)?.timer);
        open.delete(id);
      });
      req.on('data', (chunk: Buffer) => {
        if (mode === 'ok') chunks.push(chunk);
      });
      req.on('end', () => {
        const key = `${signal}:${mode}`;
        collector.counts[key] = (collector.counts[key] ?? 0) + 1;
        const answer = (status: number) => {
          if (res.destroyed) return;
          const retry = status === 429 ? { 'retry-after': '0' } : {};
          res.writeHead(status, { 'content-type': json ? 'application/json' : 'application/x-protobuf', ...retry });
          res.end(json && status < 300 ? '{}' : '');
        };
        if (mode === 'ok') {
          if (signal === 'traces' && json) collector.spans.push(...decodeSpans(Buffer.concat(chunks).toString('utf8')));
          answer(200);
        } else if (mode === '500') answer(500);
        else if (mode === '429') answer(429);
        else {
          const entry = open.get(id);
          if (entry) {
            entry.timer = setTimeout(() => {
              collector.slowAnswered++;
              answer(200);
            }, SLOW_MS);
          }
        }
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    collector.url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  };
  await listen(0);
  return collector;
}

interface JsonAnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: JsonAnyValue }[];
}

/** The spans of an OTLP JSON ExportTraceServiceRequest. */
export function decodeSpans(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as { resourceSpans?: { scopeSpans?: { spans?: JsonSpan[] }[] }[] };
  const spans: ReceivedSpan[] = [];
  for (const resource of request.resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const attributes: ReceivedSpan['attributes'] = {};
        for (const { key, value } of span.attributes ?? []) {
          attributes[key] = value.stringValue ?? value.boolValue ?? Number(value.intValue ?? value.doubleValue);
        }
        spans.push({ traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined, name: span.name, attributes });
      }
    }
  }
  return spans;
}
