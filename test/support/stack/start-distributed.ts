// The compose profile `distributed` on 127.0.0.1: three OpenSearch nodes, Jaeger v2 on them, three
// Thanos receivers (replication factor 3), `thanos query` with deduplication, `thanos rule` with the
// shipped rules, the stack's Alertmanager and alert-sink, the distributed tail sampler and the
// Prometheus that remote-writes into the ring, each started from its shipped files in compose's
// dependency order (test/support/stack/stack.ts), with clients for what the tests read and one stop()
// that stops every process by its own id.
import { waitFor, type PromSample } from '../backends.js';
import { jaegerClient, type JaegerClient } from './clients.js';
import { allocatePorts, hostAddress, startService, type DistributedBinaries, type OpenSearchNode, type PortTable, type StackProgram, type StackService, type ThanosReceiver } from './stack.js';

export const OPENSEARCH_NODES: readonly OpenSearchNode[] = ['opensearch-1', 'opensearch-2', 'opensearch-3'];
export const THANOS_RECEIVERS: readonly ThanosReceiver[] = ['thanos-receive-1', 'thanos-receive-2', 'thanos-receive-3'];

/** Started together (each group waits for the one before): compose's depends_on, in layers. */
const LAYERS: ReadonlyArray<readonly StackService[]> = [
  ['alert-sink', ...OPENSEARCH_NODES, ...THANOS_RECEIVERS],
  ['alertmanager', 'thanos-query', 'jaeger-opensearch'],
  ['thanos-rule', 'otel-collector-distributed'],
  ['prometheus-distributed'],
];

export interface ClusterHealth {
  status: 'green' | 'yellow' | 'red';
  number_of_nodes: number;
  unassigned_shards: number;
  active_shards: number;
}

export interface ThanosQuery {
  url: string;
  /** Instant query, deduplicated along receive_replica unless `dedup` is false; throws on an API error. */
  query(expr: string, opts?: { dedup?: boolean }): Promise<PromSample[]>;
  get<T>(pathAndQuery: string): Promise<T>;
}

export interface DistributedStack {
  ports: PortTable;
  programs: Partial<Record<StackService, StackProgram>>;
  /** The distributed tail sampler's OTLP/HTTP base URL. */
  otlpUrl: string;
  jaeger: JaegerClient;
  thanos: ThanosQuery;
  /** `thanos rule`'s API (its /api/v1/alerts and /api/v1/rules). */
  rule: { get<T>(pathAndQuery: string): Promise<T> };
  /** The cluster's health as the node asked sees it (a node that is up). */
  clusterHealth(node?: OpenSearchNode): Promise<ClusterHealth>;
  /** A GET of OpenSearch's REST API on opensearch-1. */
  openSearch<T>(pathAndQuery: string): Promise<T>;
  /** One program's own metrics in the Prometheus text format (its /metrics). */
  metricsText(service: StackService, containerPort: number): Promise<string>;
  stop(): Promise<void>;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} -> ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

function thanosQuery(url: string): ThanosQuery {
  return {
    url,
    async query(expr, opts = {}) {
      const params = new URLSearchParams({ query: expr, dedup: String(opts.dedup ?? true) });
      const res = await fetch(`${url}/api/v1/query`, { method: 'POST', body: params, signal: AbortSignal.timeout(30_000) });
      const body = (await res.json()) as { status: string; error?: string; data?: { resultType: string; result: PromSample[] } };
      if (body.status !== 'success') throw new Error(`query failed: ${body.error}\n${expr}`);
      if (body.data?.resultType !== 'vector') throw new Error(`expected a vector, got ${body.data?.resultType}`);
      return body.data.result;
    },
    get: (pathAndQuery) => getJson(url + pathAndQuery),
  };
}

export async function startDistributedStack(bins: DistributedBinaries, collectorEnv?: Record<string, string>): Promise<DistributedStack> {
  const services = LAYERS.flat();
  const ports = await allocatePorts(services);
  const programs: Partial<Record<StackService, StackProgram>> = {};
  const stop = async () => {
    for (const service of [...services].reverse()) await programs[service]?.stop().catch(() => undefined);
  };
  const url = (service: StackService, port: number) => `http://${hostAddress(ports, service, port)}`;
  const clusterHealth = (node: OpenSearchNode = 'opensearch-1') => getJson<ClusterHealth>(`${url(node, 9200)}/_cluster/health`);
  try {
    for (const layer of LAYERS) {
      await Promise.all(
        layer.map(async (service) => {
          programs[service] = await startService({ service, ports, bins, env: service.startsWith('otel-') ? collectorEnv : undefined });
        }),
      );
      // compose's healthcheck of an OpenSearch node; Jaeger creates its index templates at start.
      if (layer.includes('opensearch-1')) await waitFor(async () => (await clusterHealth()).status === 'green', { what: 'the OpenSearch cluster green', timeoutMs: 180_000, intervalMs: 1_000 });
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    ports,
    programs,
    otlpUrl: url('otel-collector-distributed', 4318),
    jaeger: jaegerClient(url('jaeger-opensearch', 16686)),
    thanos: thanosQuery(url('thanos-query', 10902)),
    rule: { get: (pathAndQuery) => getJson(url('thanos-rule', 10902) + pathAndQuery) },
    clusterHealth,
    openSearch: (pathAndQuery) => getJson(url('opensearch-1', 9200) + pathAndQuery),
    async metricsText(service, containerPort) {
      const res = await fetch(`${url(service, containerPort)}/metrics`, { signal: AbortSignal.timeout(10_000) });
      return res.text();
    },
    stop,
  };
}
