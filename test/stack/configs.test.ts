// The stack's config files parse and agree with each other: every YAML/JSON under deploy/ and
// dashboards/ parses; the collector's pipelines reference defined components and implement the
// sampling/export design; Prometheus, Alertmanager, Jaeger and Grafana provisioning point at the
// compose services, datasource uids and mounted paths the other files expect.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashboardFiles, loadJson, loadYaml, parseVolume, PATHS, readText, repoPath, walk, type Json } from './stack-files.js';

const compose = loadYaml(PATHS.compose);
const services: Record<string, Json> = compose.services;

/** Repo file mounted at `target` inside `service` (resolving directory mounts). */
function hostFileFor(service: string, target: string): string | undefined {
  for (const v of services[service]?.volumes ?? []) {
    const m = parseVolume(v);
    if (!m.bind) continue;
    if (target === m.target) return repoPath(m.source);
    if (target.startsWith(m.target + '/')) return repoPath(m.source, target.slice(m.target.length + 1));
  }
  return undefined;
}

describe('every stack config file parses', () => {
  const files = [...walk(repoPath('deploy')), ...dashboardFiles(), PATHS.compose];
  it.each(files.filter((f) => /\.(ya?ml|json)$/.test(f)).map((f) => [path.relative(repoPath(), f), f]))('%s', (_rel, f) => {
    const doc = f.endsWith('.json') ? loadJson(f) : loadYaml(f);
    expect(doc).toBeTypeOf('object');
    expect(doc).not.toBeNull();
  });

  it('every YAML config starts with a comment saying why it exists', () => {
    for (const f of walk(repoPath('deploy')).filter((x) => /\.(ya?ml|mjs)$/.test(x))) {
      expect(readText(f).trimStart().startsWith(f.endsWith('.mjs') ? '//' : '#'), f).toBe(true);
    }
  });
});

describe('otel-collector config', () => {
  const c = loadYaml(PATHS.collector);
  const pipelines: Record<string, Json> = c.service.pipelines;

  it('is the file compose mounts', () => {
    expect(hostFileFor('otel-collector', '/etc/otelcol-contrib/config.yaml')).toBe(PATHS.collector);
    expect(services['otel-collector'].command).toContain('--config=/etc/otelcol-contrib/config.yaml');
  });

  it('references only defined components', () => {
    for (const [name, p] of Object.entries(pipelines)) {
      for (const r of p.receivers ?? []) expect({ ...c.receivers, ...c.connectors }, `${name} receiver ${r}`).toHaveProperty([r]);
      for (const pr of p.processors ?? []) expect(c.processors, `${name} processor ${pr}`).toHaveProperty([pr]);
      for (const e of p.exporters ?? []) expect({ ...c.exporters, ...c.connectors }, `${name} exporter ${e}`).toHaveProperty([e]);
    }
    for (const ext of c.service.extensions) expect(c.extensions).toHaveProperty([ext]);
    // a connector must be both exported to and received from
    for (const conn of Object.keys(c.connectors)) {
      expect(Object.values(pipelines).some((p) => p.exporters?.includes(conn))).toBe(true);
      expect(Object.values(pipelines).some((p) => p.receivers?.includes(conn))).toBe(true);
    }
  });

  it('receives OTLP over gRPC and HTTP', () => {
    expect(c.receivers.otlp.protocols.grpc.endpoint).toBe('0.0.0.0:4317');
    expect(c.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
  });

  it('sends tail-sampled traces to Jaeger and every span to span_metrics', () => {
    const toJaeger = Object.values(pipelines).find((p) => p.exporters?.includes('otlp_grpc/jaeger'));
    expect(toJaeger?.processors).toContain('tail_sampling');
    expect(c.exporters['otlp_grpc/jaeger'].endpoint).toBe('jaeger:4317');
    const toSpanMetrics = Object.values(pipelines).find((p) => p.exporters?.includes('span_metrics'));
    expect(toSpanMetrics?.processors ?? []).not.toContain('tail_sampling');
  });

  it('ships metrics (SDK + span metrics) to the Prometheus OTLP receiver', () => {
    expect(pipelines.metrics.receivers.sort()).toEqual(['otlp', 'span_metrics']);
    expect(pipelines.metrics.exporters).toEqual(['otlp_http/prometheus']);
    expect(c.exporters['otlp_http/prometheus'].endpoint).toBe('http://prometheus:9090/api/v1/otlp');
  });

  it('computes span metrics in seconds with exemplars and the agreed dimensions', () => {
    const sm = c.connectors.span_metrics;
    expect(sm.histogram.unit).toBe('s');
    expect(sm.exemplars.enabled).toBe(true);
    expect(sm.namespace).toBe('traces.span.metrics');
    expect(sm.dimensions.map((d: Json) => d.name).sort()).toEqual(['footprint.route', 'gen_ai.operation.name', 'gen_ai.request.model']);
  });

  it('tail-samples: keeps errors, trips and escalations, samples the rest by an env knob', () => {
    const policies: Json[] = c.processors.tail_sampling.policies;
    const byType = (t: string) => policies.filter((p) => p.type === t);
    expect(byType('status_code')[0].status_code.status_codes).toEqual(['ERROR']);
    expect(byType('string_attribute')[0].string_attribute).toMatchObject({ key: 'footprint.trip.kinds', enabled_regex_matching: true });
    expect(byType('boolean_attribute')[0].boolean_attribute).toEqual({ key: 'footprint.escalated', value: true });
    expect(byType('probabilistic')[0].probabilistic.sampling_percentage).toBe('${env:FOOTPRINT_SAMPLE_PERCENT:-25}');
    expect(readText(PATHS.collector)).toMatch(/#.*FOOTPRINT_SAMPLE_PERCENT/); // documented
  });

  it('uses the 2026 component names, not the deprecated aliases', () => {
    const text = JSON.stringify(c);
    expect(text).not.toMatch(/"otlp\/|"otlphttp|"spanmetrics"/);
  });
});

describe('prometheus config', () => {
  const p = loadYaml(PATHS.prometheus);

  it('is mounted where the command expects it, with the rules folder', () => {
    expect(hostFileFor('prometheus', '/etc/prometheus/prometheus.yml')).toBe(PATHS.prometheus);
    expect(services.prometheus.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
  });

  it('promotes service.name (and not the SDK attributes) from OTLP resources', () => {
    expect(p.otlp.promote_resource_attributes).toContain('service.name');
    expect(p.otlp.promote_resource_attributes.some((a: string) => a.startsWith('telemetry.sdk'))).toBe(false);
    expect(p.otlp.translation_strategy ?? 'UnderscoreEscapingWithSuffixes').toBe('UnderscoreEscapingWithSuffixes');
  });

  it('accepts out-of-order OTLP samples and stores exemplars', () => {
    expect(p.storage.tsdb.out_of_order_time_window).toMatch(/^\d+[mh]$/);
    expect(p.storage.exemplars.max_exemplars).toBeGreaterThan(0);
  });

  it('loads the shipped rule file (and not its promtool test file)', () => {
    const files = p.rule_files.map((f: string) => hostFileFor('prometheus', f));
    expect(files).toEqual([PATHS.rules]);
  });

  it('sends alerts to the compose alertmanager', () => {
    const target = p.alerting.alertmanagers[0].static_configs[0].targets[0];
    const [host, port] = target.split(':');
    expect(services[host]).toBeDefined();
    expect(services[host].ports.some((x: string) => x.endsWith(`:${port}`))).toBe(true);
  });
});

describe('alertmanager + alert-sink', () => {
  const am = loadYaml(PATHS.alertmanager);
  it('routes every receiver to the alert-sink service', () => {
    expect(hostFileFor('alertmanager', '/etc/alertmanager/alertmanager.yml')).toBe(PATHS.alertmanager);
    const urls: string[] = am.receivers.flatMap((r: Json) => (r.webhook_configs ?? []).map((w: Json) => w.url));
    expect(urls).toEqual(['http://alert-sink:9099/alertmanager/page', 'http://alert-sink:9099/alertmanager/ticket']);
    for (const u of urls) {
      const url = new URL(u);
      expect(url.hostname).toBe('alert-sink');
      expect(url.port).toBe(services['alert-sink'].environment.PORT);
    }
    const names = new Set(am.receivers.map((r: Json) => r.name));
    const routes = [am.route, ...(am.route.routes ?? [])];
    for (const r of routes) expect(names.has(r.receiver), r.receiver).toBe(true);
  });

  it('runs the sink script compose mounts', () => {
    expect(hostFileFor('alert-sink', '/app/server.mjs')).toBe(PATHS.alertSink);
  });
});

describe('jaeger config', () => {
  const j = loadYaml(PATHS.jaeger);
  it('stores traces in a persistent Badger store with a retention, receives OTLP, and reads span metrics from Prometheus for the Monitor tab', () => {
    expect(hostFileFor('jaeger', '/etc/jaeger/config.yaml')).toBe(PATHS.jaeger);
    expect(j.service.extensions).toEqual(expect.arrayContaining(['jaeger_storage', 'jaeger_query', 'healthcheckv2']));
    expect(j.extensions.jaeger_query.storage.traces).toBe(j.exporters.jaeger_storage_exporter.trace_storage);
    // One trace backend, Badger, written to disk (its default is an ephemeral temp folder).
    expect(j.extensions.jaeger_storage.backends).toEqual({
      [j.exporters.jaeger_storage_exporter.trace_storage]: {
        badger: {
          directories: { keys: '/tmp/jaeger/keys', values: '/tmp/jaeger/values' },
          ephemeral: false,
          ttl: { spans: '${env:FOOTPRINT_TRACE_RETENTION:-168h}' },
          maintenance_interval: '5m',
        },
      },
    });
    const prom = j.extensions.jaeger_storage.metric_backends[j.extensions.jaeger_query.storage.metrics].prometheus;
    expect(prom).toMatchObject({ endpoint: 'http://prometheus:9090', metric_namespace: 'traces_span_metrics', latency_unit: 's' });
    expect(j.receivers.otlp.protocols.grpc.endpoint).toBe('0.0.0.0:4317');
    // the compose health check polls the healthcheckv2 status path
    expect(services.jaeger.healthcheck.test.join(' ')).toContain(`13133${j.extensions.healthcheckv2.http.status.path}`);
  });
});

describe('the distributed profile: collector, Jaeger on OpenSearch, Prometheus remote write', () => {
  const base = loadYaml(PATHS.collector);
  const distributed = loadYaml(repoPath('deploy/otel-collector/distributed.yaml'));
  const jaeger = loadYaml(repoPath('deploy/jaeger/opensearch.yaml'));

  it('samples exactly as the single-node collector does: only the exporters and the pipelines\' exporters differ', () => {
    expect(hostFileFor('otel-collector-distributed', '/etc/otelcol-contrib/config.yaml')).toBe(repoPath('deploy/otel-collector/distributed.yaml'));
    const withoutExporters = (c: Json) => ({
      ...c,
      exporters: undefined,
      service: { ...c.service, pipelines: Object.fromEntries(Object.entries<Json>(c.service.pipelines).map(([name, p]) => [name, { ...p, exporters: undefined }])) },
    });
    expect(withoutExporters(distributed)).toEqual(withoutExporters(base));
    expect(Object.fromEntries(Object.entries<Json>(distributed.service.pipelines).map(([name, p]) => [name, p.exporters]))).toEqual({
      'traces/sampled': ['otlp_grpc/jaeger'],
      'traces/span_metrics': ['span_metrics'],
      metrics: ['otlp_http/thanos'],
    });
    expect(distributed.exporters['otlp_grpc/jaeger'].endpoint).toBe('jaeger-opensearch:4317');
    // Thanos receive's OTLP path, given whole (endpoint would get /v1/metrics appended).
    expect(distributed.exporters['otlp_http/thanos']).toMatchObject({ metrics_endpoint: 'http://thanos-receive-1:10908/api/v1/otlp', retry_on_failure: { enabled: true } });
    expect(services['thanos-receive-1'].command).toContain('--remote-write.address=0.0.0.0:10908');
  });

  it('promotes on the receivers the resource attributes Prometheus promotes, so dashboards and rules group by the same labels', () => {
    const promoted = loadYaml(PATHS.prometheus).otlp.promote_resource_attributes;
    for (const n of [1, 2, 3]) {
      const flags: string[] = services[`thanos-receive-${n}`].command;
      expect(flags.filter((f) => f.startsWith('--receive.otlp-promote-resource-attributes=')).map((f) => f.split('=')[1])).toEqual(promoted);
    }
  });

  it('stores traces on the three OpenSearch nodes in daily indices, three shards with one replica, and reads span metrics from thanos query', () => {
    expect(hostFileFor('jaeger-opensearch', '/etc/jaeger/config.yaml')).toBe(repoPath('deploy/jaeger/opensearch.yaml'));
    const store = jaeger.extensions.jaeger_storage.backends[jaeger.exporters.jaeger_storage_exporter.trace_storage].opensearch;
    expect(jaeger.extensions.jaeger_query.storage.traces).toBe(jaeger.exporters.jaeger_storage_exporter.trace_storage);
    expect(store.server_urls).toEqual(['http://opensearch-1:9200', 'http://opensearch-2:9200', 'http://opensearch-3:9200']);
    expect(store.indices).toEqual({
      index_prefix: 'footprint',
      spans: { date_layout: '2006-01-02', rollover_frequency: 'day', shards: 3, replicas: 1 },
      services: { date_layout: '2006-01-02', rollover_frequency: 'day', shards: 1, replicas: 2 },
    });
    const metrics = jaeger.extensions.jaeger_storage.metric_backends[jaeger.extensions.jaeger_query.storage.metrics].prometheus;
    expect(metrics.endpoint).toBe('http://thanos-query:10902');
    const seeds = loadYaml(repoPath('deploy/opensearch/opensearch.yml'))['discovery.seed_hosts'];
    expect(seeds).toEqual(['opensearch-1:9300', 'opensearch-2:9300', 'opensearch-3:9300']);
  });

  it('remote-writes what Prometheus scrapes into the ring, and scrapes the distributed collector and Jaeger', () => {
    const p = loadYaml(repoPath('deploy/prometheus/distributed.yml'));
    expect(hostFileFor('prometheus-distributed', '/etc/prometheus/prometheus.yml')).toBe(repoPath('deploy/prometheus/distributed.yml'));
    expect(p.remote_write.map((w: Json) => w.url)).toEqual(['http://thanos-receive-1:10908/api/v1/receive']);
    expect(p.scrape_configs.flatMap((c: Json) => c.static_configs.flatMap((s: Json) => s.targets))).toEqual(['localhost:9090', 'otel-collector-distributed:8888', 'jaeger-opensearch:8888']);
    expect(p.rule_files).toBeUndefined();
  });
});

describe('OTLP/gRPC between the stack\'s own services', () => {
  const MIB = 1024 * 1024;
  const file = (rel: string) => ({ rel, doc: loadYaml(repoPath(rel)) });
  const collector = file('deploy/otel-collector/config.yaml');
  const gateway = file('deploy/otel-collector/gateway.yaml');
  const distributed = file('deploy/otel-collector/distributed.yaml');
  /** Every OTLP/gRPC exporter a shipped collector config has, with the config of what it sends to. */
  const hops = [
    { from: collector, exporter: 'otlp_grpc/jaeger', config: collector.doc.exporters['otlp_grpc/jaeger'], to: file('deploy/jaeger/config.yaml') },
    { from: gateway, exporter: 'load_balancing', config: gateway.doc.exporters.load_balancing.protocol.otlp, to: collector },
    { from: distributed, exporter: 'otlp_grpc/jaeger', config: distributed.doc.exporters['otlp_grpc/jaeger'], to: file('deploy/jaeger/opensearch.yaml') },
  ];

  it('the hops are every OTLP/gRPC exporter of the shipped collector configs', () => {
    const grpcExporters = [collector, gateway, distributed].flatMap(({ rel, doc }) =>
      Object.keys(doc.exporters)
        .filter((name) => name.startsWith('otlp_grpc') || name === 'load_balancing')
        .map((name) => `${rel} ${name}`),
    );
    expect(hops.map((h) => `${h.from.rel} ${h.exporter}`)).toEqual(grpcExporters);
  });

  // A batch over the receiver's message limit is refused with ResourceExhausted, which the exporter
  // does not retry: all of its spans are lost (test/stack/real-stack-burst.test.ts).
  it.each(hops.map((h) => [`${h.from.rel} ${h.exporter} -> ${h.to.rel}`, h]))('%s batches by bytes, below the receiver\'s gRPC message limit', (_name, hop) => {
    expect(hop.config.sending_queue.batch).toEqual({ sizer: 'bytes', min_size: 1 * MIB, max_size: 3 * MIB });
    const limitMib = hop.to.doc.receivers.otlp.protocols.grpc.max_recv_msg_size_mib;
    expect(limitMib).toBe(4);
    expect(hop.config.sending_queue.batch.max_size).toBeLessThan(limitMib * MIB);
  });
});

describe('grafana provisioning', () => {
  const ds = loadYaml(PATHS.grafanaDatasources);
  const byUid = Object.fromEntries(ds.datasources.map((d: Json) => [d.uid, d]));

  it('provisions Prometheus (uid prometheus) with exemplar links to Jaeger', () => {
    const prom = byUid.prometheus;
    expect(prom.type).toBe('prometheus');
    expect(new URL(prom.url).host).toBe('prometheus:9090');
    const dests = prom.jsonData.exemplarTraceIdDestinations;
    expect(dests.some((d: Json) => d.name === 'trace_id' && d.datasourceUid === 'jaeger')).toBe(true);
    expect(dests.some((d: Json) => d.name === 'trace_id' && d.url === 'http://localhost:16686/trace/$${__value.raw}')).toBe(true);
  });

  it('provisions Jaeger (uid jaeger) with traces-to-metrics on Prometheus', () => {
    const jaeger = byUid.jaeger;
    expect(jaeger.type).toBe('jaeger');
    expect(new URL(jaeger.url).host).toBe('jaeger:16686');
    expect(jaeger.jsonData.tracesToMetrics.datasourceUid).toBe('prometheus');
    expect(jaeger.jsonData.tracesToMetrics.queries.map((q: Json) => q.name)).toEqual([
      'LLM cost per hour (this route)',
      'p95 span latency (span metrics)',
      'Calls per minute (span metrics)',
    ]);
  });

  it('loads dashboards from where compose mounts dashboards/', () => {
    const provider = loadYaml(PATHS.grafanaDashboardsProvider).providers[0];
    expect(provider.type).toBe('file');
    expect(hostFileFor('grafana', provider.options.path)).toBe(PATHS.dashboardsDir);
    for (const sub of ['datasources', 'dashboards', 'alerting']) {
      expect(hostFileFor('grafana', `/etc/grafana/provisioning/${sub}`)).toBe(repoPath('deploy/grafana/provisioning', sub));
    }
    expect(services.grafana.environment.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH.startsWith(provider.options.path + '/')).toBe(true);
  });

  it('provisions grafana-distributed (compose profile distributed) with the same datasources on the distributed stores: Prometheus on thanos-query (deduplicated), Jaeger on OpenSearch', () => {
    const distributedFile = repoPath('deploy/grafana/provisioning-distributed/datasources/datasources.yaml');
    expect(hostFileFor('grafana-distributed', '/etc/grafana/provisioning/datasources')).toBe(path.dirname(distributedFile));
    for (const sub of ['dashboards', 'alerting']) {
      expect(hostFileFor('grafana-distributed', `/etc/grafana/provisioning/${sub}`)).toBe(repoPath('deploy/grafana/provisioning', sub));
    }
    expect(hostFileFor('grafana-distributed', '/var/lib/grafana/dashboards')).toBe(PATHS.dashboardsDir);
    const distributed = loadYaml(distributedFile).datasources as Json[];
    // the same datasources, uid for uid, but where they point
    const withoutUrls = (list: Json[]) => JSON.stringify(list, (key, value) => (key === 'url' ? undefined : value));
    expect(withoutUrls(distributed)).toBe(withoutUrls(ds.datasources));
    expect(distributed.map((d: Json) => [d.uid, new URL(d.url).host])).toEqual([
      ['prometheus', 'thanos-query:10902'],
      ['jaeger', 'jaeger-opensearch:16686'],
    ]);
  });

  it('notifies the alert-sink through a contact point the policy tree uses', () => {
    const n = loadYaml(PATHS.grafanaNotification);
    const names = new Set(n.contactPoints.map((c: Json) => c.name));
    const walkPolicies = (p: Json): Json[] => [p, ...(p.routes ?? []).flatMap(walkPolicies)];
    for (const p of n.policies.flatMap(walkPolicies)) expect(names.has(p.receiver), p.receiver).toBe(true);
    for (const r of n.contactPoints.flatMap((c: Json) => c.receivers)) {
      expect(r.type).toBe('webhook');
      expect(new URL(r.settings.url).host).toBe(`alert-sink:${services['alert-sink'].environment.PORT}`);
    }
  });
});
