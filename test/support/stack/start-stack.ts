// The whole compose stack on 127.0.0.1 in compose's dependency order (alert-sink, Alertmanager,
// Prometheus, Jaeger, collector), with clients for what the tests read, and one stop() for all.
import type { PromQueryable, PromSample } from '../backends.js';
import { jaegerClient, type JaegerClient } from './clients.js';
import { allocatePorts, hostAddress, startService, type PortTable, type StackBinaries, type StackProgram, type StackService } from './stack.js';

export interface RunningStack {
  ports: PortTable;
  programs: Record<StackService, StackProgram>;
  /** The OTLP/HTTP base URL apps send to: the collector's, or the gateway's with the gateway profile. */
  otlpUrl: string;
  prometheus: PromQueryable & {
    get<T>(pathAndQuery: string): Promise<T>;
  };
  jaeger: JaegerClient;
  /** What deploy/alert-sink received (GET /alerts). */
  sinkAlerts(): Promise<Array<{ path: string; status: string; labels: Record<string, string>; annotations: Record<string, string> }>>;
  stop(): Promise<void>;
}

const ORDER: StackService[] = ['alert-sink', 'alertmanager', 'prometheus', 'jaeger', 'otel-collector'];
/** compose's `--profile gateway` adds these, started after the first collector. */
const GATEWAY: StackService[] = ['otel-collector-2', 'otel-gateway'];

export interface StartStackOptions {
  bins: StackBinaries;
  /** Environment for the collector(s) over compose's (e.g. FOOTPRINT_SAMPLE_PERCENT). */
  collectorEnv?: Record<string, string>;
  /** Also start the gateway profile; otlpUrl is then the gateway's. */
  gateway?: boolean;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} -> ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export async function startStack(opts: StartStackOptions): Promise<RunningStack> {
  const services = opts.gateway ? [...ORDER, ...GATEWAY] : ORDER;
  const ports = await allocatePorts(services);
  const programs = {} as Record<StackService, StackProgram>;
  const stopAllPrograms = async () => {
    for (const service of [...services].reverse()) await programs[service]?.stop().catch(() => undefined);
  };
  try {
    for (const service of services) {
      programs[service] = await startService({ service, ports, bins: opts.bins, env: service.startsWith('otel-') ? opts.collectorEnv : undefined });
    }
  } catch (err) {
    await stopAllPrograms();
    throw err;
  }
  const promUrl = `http://${hostAddress(ports, 'prometheus', 9090)}`;
  const queryRaw = async (expr: string, time?: number) => {
    const params = new URLSearchParams({ query: expr });
    if (time !== undefined) params.set('time', String(time));
    const res = await fetch(`${promUrl}/api/v1/query`, { method: 'POST', body: params, signal: AbortSignal.timeout(30_000) });
    return (await res.json()) as Awaited<ReturnType<PromQueryable['queryRaw']>>;
  };
  return {
    ports,
    programs,
    otlpUrl: `http://${hostAddress(ports, opts.gateway ? 'otel-gateway' : 'otel-collector', 4318)}`,
    prometheus: {
      url: promUrl,
      queryRaw,
      async query(expr, time) {
        const body = await queryRaw(expr, time);
        if (body.status !== 'success') throw new Error(`query failed: ${body.errorType}: ${body.error}\n${expr}`);
        if (body.data?.resultType !== 'vector') throw new Error(`expected a vector, got ${body.data?.resultType}`);
        return body.data.result as PromSample[];
      },
      get: (pathAndQuery) => getJson(promUrl + pathAndQuery),
    },
    jaeger: jaegerClient(`http://${hostAddress(ports, 'jaeger', 16686)}`),
    sinkAlerts: () => getJson(`http://${hostAddress(ports, 'alert-sink', 9099)}/alerts`),
    stop: stopAllPrograms,
  };
}

