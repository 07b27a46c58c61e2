// The real-stack tests run the SHIPPED files, changed only by test/support/stack/localize.ts (host
// names and ports, container mount paths). This proves the transform changes nothing else: on every
// shipped config, every leaf that differs after localizing was an address of a compose host or a
// mounted path, and became a 127.0.0.1 address or the host path; keys and all other values are equal.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { localizeString, localizeTree, localizeYaml, UnmappedAddressError, type Localization } from '../support/stack/localize.js';
import { addressesFor, interpolate, prepareService, type PortTable, type StackService } from '../support/stack/stack.js';
import { loadYaml, PATHS, REPO, type Json } from './stack-files.js';

const PORTS: PortTable = {
  'otel-collector': { 4317: 14317, 4318: 14318, 13133: 13134, 8888: 18888 },
  'otel-collector-2': { 4317: 34317, 4318: 34318, 13133: 33133, 8888: 38888 },
  'otel-gateway': { 4317: 44317, 4318: 44318, 13133: 43133, 8888: 48888 },
  jaeger: { 4317: 24317, 4318: 24318, 13133: 23133, 16685: 26685, 16686: 26686, 8888: 28888 },
  prometheus: { 9090: 19090 },
  alertmanager: { 9093: 19093, 9094: 19094 },
  'alert-sink': { 9099: 19099 },
  'opensearch-1': { 9200: 19201, 9300: 19301 },
  'opensearch-2': { 9200: 19202, 9300: 19302 },
  'opensearch-3': { 9200: 19203, 9300: 19303 },
  'jaeger-opensearch': { 4317: 54317, 4318: 54318, 13133: 53133, 16685: 56685, 16686: 56686, 8888: 58888 },
  'thanos-receive-1': { 10907: 20907, 10908: 20908, 10909: 20909, 19391: 29391 },
  'thanos-receive-2': { 10907: 30907, 10908: 30908, 10909: 30909, 19391: 39391 },
  'thanos-receive-3': { 10907: 40907, 10908: 40908, 10909: 40909, 19391: 49391 },
  'thanos-query': { 10901: 20901, 10902: 20902 },
  'thanos-rule': { 10901: 30901, 10902: 30902 },
  'otel-collector-distributed': { 4317: 64317, 4318: 64318, 13133: 63133, 8888: 61888 },
  'prometheus-distributed': { 9090: 29090 },
};

/** Every leaf as [path, value]. */
function leaves(tree: Json, at = ''): Array<[string, unknown]> {
  if (tree === null || typeof tree !== 'object') return [[at, tree]];
  return Object.entries(tree).flatMap(([key, value]) => leaves(value, `${at}/${key}`));
}

function changedLeaves(before: Json, after: Json): Array<{ at: string; from: unknown; to: unknown }> {
  const a = leaves(before);
  const b = new Map(leaves(after));
  expect([...b.keys()]).toEqual(a.map(([at]) => at)); // same shape, same keys, same order
  return a.filter(([at, value]) => b.get(at) !== value).map(([at, from]) => ({ at, from, to: b.get(at) }));
}

const SHIPPED: Array<{ service: StackService; file: string }> = [
  { service: 'otel-collector', file: PATHS.collector },
  { service: 'otel-gateway', file: PATHS.gateway },
  { service: 'jaeger', file: PATHS.jaeger },
  { service: 'prometheus', file: PATHS.prometheus },
  { service: 'alertmanager', file: PATHS.alertmanager },
  // --profile distributed
  { service: 'otel-collector-distributed', file: `${REPO}/deploy/otel-collector/distributed.yaml` },
  { service: 'jaeger-opensearch', file: `${REPO}/deploy/jaeger/opensearch.yaml` },
  { service: 'opensearch-1', file: `${REPO}/deploy/opensearch/opensearch.yml` },
  { service: 'thanos-query', file: `${REPO}/deploy/thanos/query-endpoints.yaml` },
  { service: 'prometheus-distributed', file: `${REPO}/deploy/prometheus/distributed.yml` },
];

describe('localize: the one transform from shipped files to 127.0.0.1', () => {
  const hosts = new Set([...Object.keys(loadYaml(PATHS.compose).services), '0.0.0.0', 'localhost']);

  it.each(SHIPPED)('changes only addresses and mount paths in $file', ({ service, file }) => {
    const loc: Localization = { hosts, addresses: addressesFor(service, PORTS), mounts: [{ target: '/etc/prometheus/rules', source: PATHS.rulesDir }] };
    const shipped = loadYaml(file);
    const changed = changedLeaves(shipped, localizeTree(shipped, loc));
    expect(changed.length).toBeGreaterThanOrEqual(1);
    for (const { at, from, to } of changed) {
      if (at.endsWith('/host')) {
        expect([from, to]).toEqual(['0.0.0.0', '127.0.0.1']); // the host of a { host, port } pair
      } else if (typeof from === 'number') {
        expect(Object.values(PORTS[service]!)).toContain(to); // the port of a { host, port } pair
      } else if (String(from).startsWith('/etc/')) {
        expect(String(to).startsWith(PATHS.rulesDir)).toBe(true);
      } else {
        expect(String(from)).toMatch(/^(https?:\/\/)?(0\.0\.0\.0|localhost|[a-z0-9-]+):\d+(\/.*)?$/);
        expect(String(to)).toMatch(/^(https?:\/\/)?127\.0\.0\.1:\d+(\/.*)?$/);
      }
    }
  });

  it('keeps a string a string for a YAML 1.1 reader such as Go: the date layout of Jaeger on OpenSearch stays "2006-01-02", not a timestamp', () => {
    const loc: Localization = { hosts, addresses: addressesFor('jaeger-opensearch', PORTS), mounts: [] };
    const localized = YAML.parse(localizeYaml(readFileSync(`${REPO}/deploy/jaeger/opensearch.yaml`, 'utf8'), loc), { version: '1.1' });
    const indices = localized.extensions.jaeger_storage.backends.opensearch_traces.opensearch.indices;
    expect([indices.spans.date_layout, indices.services.date_layout]).toEqual(['2006-01-02', '2006-01-02']);
    expect(indices.spans.shards).toBe(3);
  });

  it("leaves a collector's ${env:…} value plain, so the collector types it from what it expands to (quoted, the sampling percentage would be a string)", () => {
    const loc: Localization = { hosts, addresses: addressesFor('otel-collector', PORTS), mounts: [] };
    const text = localizeYaml(readFileSync(`${REPO}/deploy/otel-collector/config.yaml`, 'utf8'), loc);
    expect(text).toMatch(/^ +sampling_percentage: \$\{env:FOOTPRINT_SAMPLE_PERCENT:-25\}$/m);
  });

  it('rewrites the collector exactly where it names an address', () => {
    const loc: Localization = { hosts, addresses: addressesFor('otel-collector', PORTS), mounts: [] };
    const shipped = loadYaml(PATHS.collector);
    const changed = changedLeaves(shipped, localizeTree(shipped, loc)).map(({ at, to }) => [at, to]);
    expect(changed).toEqual([
      ['/receivers/otlp/protocols/grpc/endpoint', '127.0.0.1:14317'],
      ['/receivers/otlp/protocols/http/endpoint', '127.0.0.1:14318'],
      ['/exporters/otlp_grpc/jaeger/endpoint', '127.0.0.1:24317'],
      ['/exporters/otlp_http/prometheus/endpoint', 'http://127.0.0.1:19090/api/v1/otlp'],
      ['/extensions/health_check/endpoint', '127.0.0.1:13134'],
      ['/service/telemetry/metrics/readers/0/pull/exporter/prometheus/host', '127.0.0.1'],
      ['/service/telemetry/metrics/readers/0/pull/exporter/prometheus/port', 18888],
    ]);
  });

  it('points the gateway at both samplers by their compose names', () => {
    const loc: Localization = { hosts, addresses: addressesFor('otel-gateway', PORTS), mounts: [] };
    const gateway = localizeTree(loadYaml(PATHS.gateway), loc);
    expect(gateway.exporters.load_balancing.resolver.static.hostnames).toEqual(['127.0.0.1:14317', '127.0.0.1:34317']);
    expect(gateway.receivers.otlp.protocols.http.endpoint).toBe('127.0.0.1:44318');
  });

  it('fails on an address the test gave no port, instead of leaving a dead host in place', () => {
    const loc: Localization = { hosts, addresses: {}, mounts: [] };
    expect(() => localizeString('http://jaeger:4317', loc)).toThrow(UnmappedAddressError);
    expect(() => localizeTree({ host: '0.0.0.0', port: 8888 }, loc)).toThrow(/0\.0\.0\.0:8888/);
    // Not a compose host, not an address: left alone.
    expect(localizeString('http://example.invalid:80/x', loc)).toBe('http://example.invalid:80/x');
    expect(localizeString('${env:FOOTPRINT_SAMPLE_PERCENT:-25}', loc)).toBe('${env:FOOTPRINT_SAMPLE_PERCENT:-25}');
  });

  it('maps --flag=value arguments and the longest mount target first', () => {
    const loc: Localization = {
      hosts,
      addresses: { 'alertmanager:9093': '127.0.0.1:1' },
      mounts: [
        { target: '/etc/prometheus', source: '/a' },
        { target: '/etc/prometheus/rules', source: '/b' },
      ],
    };
    expect(localizeString('--config.file=/etc/prometheus/prometheus.yml', loc)).toBe('--config.file=/a/prometheus.yml');
    expect(localizeString('/etc/prometheus/rules/x.yml', loc)).toBe('/b/x.yml');
    expect(localizeString('/etc/prometheusX', loc)).toBe('/etc/prometheusX');
    expect(localizeString('--alertmanager.url=http://alertmanager:9093', loc)).toBe('--alertmanager.url=http://127.0.0.1:1');
  });

  it("interpolates compose's ${VAR:-default}", () => {
    expect(interpolate('${FOOTPRINT_SAMPLE_PERCENT:-25}', {})).toBe('25');
    expect(interpolate('${FOOTPRINT_SAMPLE_PERCENT:-25}', { FOOTPRINT_SAMPLE_PERCENT: '100' })).toBe('100');
  });
});

describe("prepareService: compose's command, mounts and environment, localized", () => {
  const work = () => mkdtempSync(path.join(os.tmpdir(), 'footprint-localize-'));

  it('prometheus: the compose flags, its config copy localized, the rules folder and data volume mapped', () => {
    const dir = work();
    try {
      const prepared = prepareService('prometheus', PORTS, dir);
      expect(prepared.args).toEqual([
        `--config.file=${dir}/prometheus.yml`,
        `--storage.tsdb.path=${dir}/prometheus-data`,
        '--web.enable-otlp-receiver',
        '--web.enable-lifecycle',
        '--enable-feature=exemplar-storage',
        '--enable-feature=created-timestamp-zero-ingestion',
      ]);
      const config = YAML.parse(readFileSync(path.join(dir, 'prometheus.yml'), 'utf8'));
      expect(config.rule_files).toEqual([path.join(REPO, 'deploy/prometheus/rules/footprint-alerts.yml')]);
      expect(config.alerting.alertmanagers[0].static_configs[0].targets).toEqual(['127.0.0.1:19093']);
      expect(config.scrape_configs[0].static_configs[0].targets).toEqual(['127.0.0.1:19090']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a Thanos receiver: its listeners, its own ring endpoint and the hashring copy (JSON) localized, its TSDB on its volume', () => {
    const dir = work();
    try {
      const prepared = prepareService('thanos-receive-2', PORTS, dir);
      expect(prepared.args).toEqual(
        expect.arrayContaining([
          `--tsdb.path=${dir}/thanos-receive-2-data`,
          `--receive.hashrings-file=${dir}/hashrings.json`,
          '--receive.local-endpoint=127.0.0.1:30907',
          '--grpc-address=127.0.0.1:30907',
          '--http-address=127.0.0.1:30909',
          '--remote-write.address=127.0.0.1:30908',
          '--receive.capnproto-address=127.0.0.1:39391',
          '--label=receive_replica="r2"',
        ]),
      );
      expect(JSON.parse(readFileSync(path.join(dir, 'hashrings.json'), 'utf8'))).toEqual([
        { hashring: 'footprint', endpoints: ['127.0.0.1:20907', '127.0.0.1:30907', '127.0.0.1:40907'] },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('collector: the compose command and FOOTPRINT_SAMPLE_PERCENT default', () => {
    const dir = work();
    try {
      const saved = process.env.FOOTPRINT_SAMPLE_PERCENT;
      delete process.env.FOOTPRINT_SAMPLE_PERCENT;
      const prepared = prepareService('otel-collector', PORTS, dir);
      if (saved !== undefined) process.env.FOOTPRINT_SAMPLE_PERCENT = saved;
      expect(prepared.args).toEqual([`--config=${dir}/config.yaml`]);
      expect(prepared.env).toEqual({ FOOTPRINT_SAMPLE_PERCENT: '25' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('jaeger: its config copy localized, the Badger folders on its own data volume, the retention default', () => {
    const dir = work();
    try {
      const saved = process.env.FOOTPRINT_TRACE_RETENTION;
      delete process.env.FOOTPRINT_TRACE_RETENTION;
      const prepared = prepareService('jaeger', PORTS, dir);
      if (saved !== undefined) process.env.FOOTPRINT_TRACE_RETENTION = saved;
      expect(prepared.args).toEqual([`--config=${dir}/config.yaml`]);
      expect(prepared.env).toEqual({ FOOTPRINT_TRACE_RETENTION: '168h' });
      const config = YAML.parse(readFileSync(path.join(dir, 'config.yaml'), 'utf8'));
      expect(config.extensions.jaeger_storage.backends.badgerstore.badger).toEqual({
        directories: { keys: `${dir}/jaeger-data/jaeger/keys`, values: `${dir}/jaeger-data/jaeger/values` },
        ephemeral: false,
        ttl: { spans: '${env:FOOTPRINT_TRACE_RETENTION:-168h}' },
        maintenance_interval: '5m',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('alertmanager: webhooks point at the alert-sink port, its storage in its own data volume', () => {
    const dir = work();
    try {
      const prepared = prepareService('alertmanager', PORTS, dir);
      // Never the host's /alertmanager: a notification log shared between runs makes Alertmanager
      // skip a group it "already sent" within repeat_interval, so the sink would hear nothing.
      expect(prepared.args).toEqual([`--config.file=${dir}/alertmanager.yml`, `--storage.path=${dir}/alertmanager-data`]);
      const config = YAML.parse(readFileSync(path.join(dir, 'alertmanager.yml'), 'utf8'));
      expect(config.receivers.map((r: Json) => r.webhook_configs[0].url)).toEqual([
        'http://127.0.0.1:19099/alertmanager/page',
        'http://127.0.0.1:19099/alertmanager/ticket',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
