// Shared loaders for the stack tests: where the repo's stack files are and how to read them,
// so each test file states what it checks rather than how to find and parse things.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const repoPath = (...p: string[]) => path.join(REPO, ...p);

export const PATHS = {
  compose: repoPath('docker-compose.yml'),
  composeSchema: repoPath('test/stack/fixtures/compose-spec.json'),
  collector: repoPath('deploy/otel-collector/config.yaml'),
  gateway: repoPath('deploy/otel-collector/gateway.yaml'),
  jaeger: repoPath('deploy/jaeger/config.yaml'),
  prometheus: repoPath('deploy/prometheus/prometheus.yml'),
  rulesDir: repoPath('deploy/prometheus/rules'),
  rules: repoPath('deploy/prometheus/rules/footprint-alerts.yml'),
  rulesTest: repoPath('deploy/prometheus/rules/footprint-alerts.test.yml'),
  alertmanager: repoPath('deploy/alertmanager/alertmanager.yml'),
  alertSink: repoPath('deploy/alert-sink/server.mjs'),
  grafanaDatasources: repoPath('deploy/grafana/provisioning/datasources/datasources.yaml'),
  grafanaDashboardsProvider: repoPath('deploy/grafana/provisioning/dashboards/footprint.yaml'),
  grafanaAlerting: repoPath('deploy/grafana/provisioning/alerting/footprint-alerts.yaml'),
  grafanaNotification: repoPath('deploy/grafana/provisioning/alerting/notification.yaml'),
  dashboardsDir: repoPath('dashboards'),
  buildScript: repoPath('scripts/build-backends.sh'),
} as const;

export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export function loadYaml(file: string): Json {
  return YAML.parse(readText(file));
}

export function loadJson(file: string): Json {
  return JSON.parse(readText(file));
}

/** Every file below `dir` (recursive), absolute paths, sorted. */
export function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else out.push(full);
  }
  return out.sort();
}

export function dashboardFiles(): string[] {
  return walk(PATHS.dashboardsDir).filter((f) => f.endsWith('.json'));
}

export interface PromRule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function prometheusAlertRules(): PromRule[] {
  const doc = loadYaml(PATHS.rules) as { groups: Array<{ name: string; rules: PromRule[] }> };
  return doc.groups.flatMap((g) => g.rules).filter((r) => r.alert);
}

export interface GrafanaRule {
  uid: string;
  title: string;
  condition: string;
  for: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  noDataState?: string;
  execErrState?: string;
  data: Array<{ refId: string; datasourceUid: string; relativeTimeRange?: { from: number; to: number }; model: Json }>;
}

export function grafanaAlertGroups(): Array<{ orgId: number; name: string; folder: string; interval: string; rules: GrafanaRule[] }> {
  return (loadYaml(PATHS.grafanaAlerting) as { groups: ReturnType<typeof grafanaAlertGroups> }).groups;
}

/** "0m", "0s", "10m", "1h30m" -> seconds. */
export function durationSeconds(d: string | undefined): number {
  if (!d) return 0;
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31536000 };
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w|y)/g;
  let matched = '';
  for (let m = re.exec(d); m; m = re.exec(d)) {
    total += Number(m[1]) * units[m[2]!]!;
    matched += m[0];
  }
  if (matched !== d) throw new Error(`not a duration: ${d}`);
  return total;
}

/** Compose short-syntax volume "./src:/target:ro" -> { source, target } (named volumes: source has no slash). */
export function parseVolume(v: string | { type?: string; source?: string; target: string }): { source: string; target: string; bind: boolean } {
  if (typeof v !== 'string') return { source: v.source ?? '', target: v.target, bind: v.type === 'bind' };
  const [source = '', target = ''] = v.split(':');
  return { source, target, bind: source.startsWith('.') || source.startsWith('/') };
}
