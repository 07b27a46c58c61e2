// docker-compose.yml is a valid Compose file (official compose-spec JSON schema, vendored, ajv
// draft-07; a deliberately broken copy must fail), pins the agreed images, gives every service
// that can have one a health check, and mounts only files that exist in the repo.
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadJson, loadYaml, parseVolume, PATHS, readText, repoPath, type Json } from './stack-files.js';

// ajv/ajv-formats are CJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = ((AjvModule as Json).default ?? AjvModule) as typeof AjvModule.default;
const addFormats = ((addFormatsModule as Json).default ?? addFormatsModule) as typeof addFormatsModule.default;

function composeValidator() {
  const schema = loadJson(PATHS.composeSchema);
  delete schema.$schema; // ajv ships draft-07 under the http:// id; the schema says https://
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

const compose = loadYaml(PATHS.compose);
const services: Record<string, Json> = compose.services;

/** The releases scripts/build-backends.sh builds and test/stack runs: what ships is what ran. */
const built = Object.fromEntries([...readText(repoPath('scripts/build-backends.sh')).matchAll(/^readonly (\w+)_VERSION=(\S+)/gm)].map((m) => [m[1]!, m[2]!]));
const goModuleToRelease = {
  // Jaeger v2 releases as Go module v1.x: v1.63.0 was v2.0.0 (its CHANGELOG pairs them).
  jaeger: (v: string) => `2.${Number(/^v1\.(\d+)\.0$/.exec(v)![1]) - 63}.0`,
  // Prometheus 3 releases as Go module v0.3xx: v0.300.0 was v3.0.0.
  prometheus: (v: string) => `v3.${Number(/^v0\.3(\d\d)\.0$/.exec(v)![1])}.0`,
};

/** The releases scripts/build-distributed.sh builds and test/distributed runs (compose profile `distributed`). */
const builtDistributed = Object.fromEntries([...readText(repoPath('scripts/build-distributed.sh')).matchAll(/^readonly (\w+)_VERSION=(\S+)/gm)].map((m) => [m[1]!, m[2]!]));
const DISTRIBUTED_SERVICES = [
  'opensearch-1',
  'opensearch-2',
  'opensearch-3',
  'jaeger-opensearch',
  'thanos-receive-1',
  'thanos-receive-2',
  'thanos-receive-3',
  'thanos-query',
  'thanos-rule',
  'otel-collector-distributed',
  'prometheus-distributed',
  'grafana-distributed',
];

const PINNED: Record<string, string> = {
  'otel-collector': `otel/opentelemetry-collector-contrib:${built.COLLECTOR}`,
  jaeger: `jaegertracing/jaeger:${goModuleToRelease.jaeger(built.JAEGER!)}`,
  prometheus: `prom/prometheus:${goModuleToRelease.prometheus(built.PROMETHEUS!)}`,
  alertmanager: `prom/alertmanager:${built.ALERTMANAGER}`,
  grafana: 'grafana/grafana:13.2.0',
  'opensearch-1': `opensearchproject/opensearch:${builtDistributed.OPENSEARCH}`,
  'jaeger-opensearch': `jaegertracing/jaeger:${goModuleToRelease.jaeger(built.JAEGER!)}`,
  'thanos-query': `thanosio/thanos:${builtDistributed.THANOS}`,
  'otel-collector-distributed': `otel/opentelemetry-collector-contrib:${built.COLLECTOR}`,
  'prometheus-distributed': `prom/prometheus:${goModuleToRelease.prometheus(built.PROMETHEUS!)}`,
  'grafana-distributed': 'grafana/grafana:13.2.0',
};

describe('docker-compose.yml', () => {
  const validate = composeValidator();

  it('validates against the official Compose schema', () => {
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('a deliberately broken copy fails the same schema', () => {
    const broken = structuredClone(compose);
    broken.services.jaeger.portz = ['16686:16686'];
    expect(validate(broken)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain('portz');

    const badDependency = structuredClone(compose);
    badDependency.services.grafana.depends_on.prometheus.condition = 'service_maybe';
    expect(validate(badDependency)).toBe(false);
  });

  it('is the footprint-otel project with the pinned images', () => {
    expect(compose.name).toBe('footprint-otel');
    for (const [svc, image] of Object.entries(PINNED)) expect(services[svc]?.image, svc).toBe(image);
    expect(Object.keys(services).sort()).toEqual(
      ['alert-sink', 'alertmanager', 'grafana', 'jaeger', 'otel-collector', 'otel-collector-2', 'otel-gateway', 'prometheus', ...DISTRIBUTED_SERVICES].sort(),
    );
    // The distributed stores run only under --profile distributed, each part at one release.
    for (const svc of DISTRIBUTED_SERVICES) expect(services[svc].profiles, svc).toEqual(['distributed']);
    for (const svc of ['opensearch-2', 'opensearch-3']) expect(services[svc].image).toBe(PINNED['opensearch-1']);
    for (const svc of ['thanos-receive-1', 'thanos-receive-2', 'thanos-receive-3', 'thanos-rule']) expect(services[svc].image).toBe(PINNED['thanos-query']);
    // The scale-out tier runs the same collector image, only under --profile gateway.
    for (const svc of ['otel-collector-2', 'otel-gateway']) {
      expect(services[svc].image).toBe(PINNED['otel-collector']);
      expect(services[svc].profiles).toEqual(['gateway']);
    }
    for (const s of Object.values(services)) expect(String(s.image)).toMatch(/:[\w.-]+$/); // tagged, never :latest
    for (const s of Object.values(services)) expect(String(s.image)).not.toMatch(/:latest$/);
  });

  it('health-checks every service except the scratch-based collectors', () => {
    for (const [name, s] of Object.entries(services)) {
      if (String(s.image).startsWith('otel/opentelemetry-collector-contrib:')) {
        expect(s.healthcheck).toBeUndefined();
        continue;
      }
      expect(s.healthcheck?.test?.[0], `${name} healthcheck`).toBe('CMD');
    }
  });

  it('orders startup on health, and depends only on services that exist', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const [dep, cond] of Object.entries<Json>(s.depends_on ?? {})) {
        expect(Object.keys(services), `${name} depends on ${dep}`).toContain(dep);
        expect(cond.condition).toBe(services[dep].healthcheck ? 'service_healthy' : 'service_started');
      }
    }
  });

  it('mounts only repo files that exist, and declares its named volumes', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const v of s.volumes ?? []) {
        const { source, bind } = parseVolume(v);
        if (bind) expect(existsSync(repoPath(source)), `${name}: ${source}`).toBe(true);
        else expect(compose.volumes, `named volume ${source}`).toHaveProperty(source);
      }
    }
  });

  it('keeps every storage path on a named volume (silences and sent notifications outlive the container)', () => {
    const storage = Object.entries(services).flatMap(([name, s]) =>
      ((s.command ?? []) as string[])
        .map((arg) => /^--storage\.[a-z.]*path=(.+)$/.exec(arg)?.[1])
        .filter((dir): dir is string => dir !== undefined)
        .map((dir) => [name, dir, (s.volumes ?? []).map(parseVolume).find((v: { target: string; bind: boolean }) => !v.bind && v.target === dir)?.source ?? '(no volume)']),
    );
    expect(storage).toEqual([
      ['prometheus', '/prometheus', 'prometheus-data'],
      ['alertmanager', '/alertmanager', 'alertmanager-data'],
      ['prometheus-distributed', '/prometheus', 'prometheus-distributed-data'],
    ]);
  });

  it('keeps every distributed store on a named volume of its own: each OpenSearch node, receiver and the ruler', () => {
    const volumeAt = (svc: string, target: string) => (services[svc].volumes as string[]).map(parseVolume).find((v: { bind: boolean; target: string }) => !v.bind && v.target === target)?.source;
    const openSearchData = loadYaml(repoPath('deploy/opensearch/opensearch.yml'))['path.data'];
    for (const n of [1, 2, 3]) {
      expect(volumeAt(`opensearch-${n}`, openSearchData)).toBe(`opensearch-${n}-data`);
      expect(services[`thanos-receive-${n}`].command).toContain('--tsdb.path=/data');
      expect(volumeAt(`thanos-receive-${n}`, '/data')).toBe(`thanos-receive-${n}-data`);
    }
    expect(services['thanos-rule'].command).toContain('--data-dir=/data');
    expect(volumeAt('thanos-rule', '/data')).toBe('thanos-rule-data');
  });

  it('replicates every series three times and deduplicates it on read: each receiver its own replica label and endpoint, one hashring', () => {
    const hashrings = loadJson(repoPath('deploy/thanos/hashrings.json'));
    const receivers = ['thanos-receive-1', 'thanos-receive-2', 'thanos-receive-3'];
    expect(hashrings).toEqual([{ hashring: 'footprint', endpoints: receivers.map((r) => `${r}:10907`) }]);
    receivers.forEach((svc, i) => {
      const flags: string[] = services[svc].command;
      expect(flags).toEqual(expect.arrayContaining(['receive', '--receive.replication-factor=3', `--receive.local-endpoint=${svc}:10907`, `--label=receive_replica="r${i + 1}"`, '--grpc-address=0.0.0.0:10907']));
    });
    expect(services['thanos-query'].command).toEqual(expect.arrayContaining(['--query.replica-label=receive_replica', '--deduplication.func=chain']));
    expect(loadYaml(repoPath('deploy/thanos/query-endpoints.yaml')).endpoints).toEqual(receivers.map((r) => ({ address: `${r}:10907` })));
    // The ruler evaluates the same rule file Prometheus loads, and alerts through the stack's Alertmanager.
    expect(services['thanos-rule'].command).toEqual(expect.arrayContaining(['rule', '--rule-file=/etc/thanos/rules/footprint-alerts.yml', '--query=thanos-query:10902', '--alertmanagers.url=http://alertmanager:9093']));
    expect(services['prometheus-distributed'].command).toContain('--storage.remote.flush-deadline=5s');
  });

  it("keeps Jaeger's Badger store on a named volume, with the retention knob passed through", () => {
    const jaegerConfig = loadYaml(PATHS.jaeger);
    const store = jaegerConfig.extensions.jaeger_storage.backends[jaegerConfig.exporters.jaeger_storage_exporter.trace_storage].badger;
    const volume = (services.jaeger.volumes as string[]).map(parseVolume).find((v: { bind: boolean }) => !v.bind);
    expect(volume).toMatchObject({ source: 'jaeger-data', target: '/tmp' });
    for (const dir of [store.directories.keys, store.directories.values]) expect(String(dir).startsWith(`${volume!.target}/`), dir).toBe(true);
    expect(services.jaeger.environment).toEqual({ FOOTPRINT_TRACE_RETENTION: '${FOOTPRINT_TRACE_RETENTION:-168h}' });
    // The same default in the file, for Jaeger started outside compose.
    expect(store.ttl.spans).toBe('${env:FOOTPRINT_TRACE_RETENTION:-168h}');
    expect(readText(PATHS.compose)).toMatch(/#.*FOOTPRINT_TRACE_RETENTION/); // documented
  });

  it('exposes the collector OTLP ports and the UIs on the host', () => {
    const ports = Object.values(services).flatMap((s) => (s.ports ?? []).map((p: string) => p.split(':')[0]));
    for (const p of ['4317', '4318', '16686', '9090', '9093', '3000']) expect(ports).toContain(p);
    expect(services.jaeger.ports.some((p: string) => p.startsWith('4317') || p.startsWith('4318'))).toBe(false);
  });

  it('passes the sampling knob to the collector and the receiver/lifecycle flags to Prometheus', () => {
    expect(services['otel-collector'].environment.FOOTPRINT_SAMPLE_PERCENT).toBe('${FOOTPRINT_SAMPLE_PERCENT:-25}');
    const flags: string[] = services.prometheus.command;
    expect(flags).toContain('--web.enable-otlp-receiver');
    expect(flags).toContain('--enable-feature=exemplar-storage');
    expect(services.grafana.environment).toMatchObject({ GF_AUTH_ANONYMOUS_ENABLED: 'true', GF_AUTH_ANONYMOUS_ORG_ROLE: 'Admin' });
  });
});
