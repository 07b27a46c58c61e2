// The dashboards' rate panels read `[$__rate_interval]`, which Grafana derives from the Prometheus
// datasource's scrape interval (jsonData.timeInterval): max($__interval + timeInterval,
// 4 × timeInterval), and $__interval is never below timeInterval, so the shortest window a panel
// gets is 4 × timeInterval. Metrics reach Prometheus pushed over OTLP once per SDK export interval
// (startTelemetry's default, OTEL_METRIC_EXPORT_INTERVAL unset: 60 s), not scraped. A window that
// holds a single sample of a series gives rate() nothing: the panel is empty. The real promtool
// evaluates the *Runs / min* panel as Grafana would send it, over series pushed at the SDK's default
// interval, with the window the shipped datasources give.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../src/telemetry/config.js';
import { describeWithBackends } from '../support/backends.js';
import { dashboardFiles, durationSeconds, loadJson, loadYaml, PATHS, repoPath, type Json } from './stack-files.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'footprint-rate-interval-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The SDK's metric export interval when nothing sets it (seconds). */
function defaultExportIntervalSeconds(): number {
  vi.stubEnv('OTEL_METRIC_EXPORT_INTERVAL', '');
  try {
    return resolveConfig({}).metricIntervalMs / 1000;
  } finally {
    vi.unstubAllEnvs();
  }
}

/** The shortest $__rate_interval Grafana gives a panel on this datasource file's Prometheus (seconds). */
function shortestRateInterval(datasourcesFile: string): number {
  const prometheus = (loadYaml(datasourcesFile).datasources as Json[]).find((d) => d.uid === 'prometheus');
  return 4 * durationSeconds(prometheus.jsonData.timeInterval);
}

function runsPerMinutePanel(): string {
  const overview = dashboardFiles().map(loadJson).find((d: Json) => d.uid === 'footprint-agent-runs-overview');
  const panel = (overview.panels as Json[]).find((p) => p.title === 'Runs / min');
  return panel.targets[0].expr as string;
}

const DATASOURCES = [
  ['compose', PATHS.grafanaDatasources],
  ['distributed', repoPath('deploy/grafana/provisioning-distributed/datasources/datasources.yaml')],
] as const;

describeWithBackends("the dashboards' rate windows over metrics pushed at the SDK's default export interval", ['promtool'], (bins) => {
  it.each(DATASOURCES)('%s datasource: Runs / min shows the rate of a service exporting every 60 s', (name, file) => {
    const exportEvery = defaultExportIntervalSeconds();
    expect(exportEvery).toBe(60);
    const window = shortestRateInterval(file);
    const expr = runsPerMinutePanel()
      .replaceAll('$__rate_interval', `${window}s`)
      .replace(/\$[A-Za-z_]\w*/g, '.*');
    // 60 runs between exports: one run per second, 60 runs a minute
    const test = {
      rule_files: [],
      evaluation_interval: '1m',
      tests: [
        {
          interval: `${exportEvery}s`,
          input_series: [
            { series: 'footprint_runs_total{service_name="shop",footprint_runner_kind="agent",footprint_runner_id="desk",footprint_run_outcome="ok"}', values: '0+60x30' },
          ],
          // between two exports, as a dashboard refresh mostly falls; rounded, since rate() stretches the
          // samples' span to the window's (59.999999999999993 here), while an empty window stays empty
          promql_expr_test: [{ expr: `round(${expr})`, eval_time: '10m30s', exp_samples: [{ labels: '{}', value: 60 }] }],
        },
      ],
    };
    const testFile = path.join(tmp, `${name}.test.yml`);
    writeFileSync(testFile, YAML.stringify(test));
    const r = spawnSync(bins.promtool, ['test', 'rules', testFile], { encoding: 'utf8', timeout: 60_000 });
    expect(`${r.stdout}\n${r.stderr}`).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });
});
