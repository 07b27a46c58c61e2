/**
 * The README's stack recipe, run as written: its load command, parsed from the README itself, sends
 * through the real collector into the real Prometheus 3, with no other setting (the SDK's own metric
 * export interval, the demo's own service name). Afterwards every dashboard panel's query has data,
 * the MCP and streaming panels included (the recipe runs those paths too), and so does every Grafana
 * alert rule's query but the one that only answers during a spend spike.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackends } from '../support/backends.js';
import { runDemo, type DemoRun } from '../support/stack/clients.js';
import { startStack, type RunningStack } from '../support/stack/start-stack.js';
import { dashboardQueries, grafanaAlertQueries } from './promql.js';
import { repoPath } from './stack-files.js';

const RECIPE_LINE = /^OTEL_EXPORTER_OTLP_ENDPOINT=http:\/\/localhost:4318 npm start -- (.+)$/m;

/** The demo arguments of the README's recipe line. */
function recipeArgs(): string[] {
  const found = RECIPE_LINE.exec(readFileSync(repoPath('README.md'), 'utf8'));
  if (!found) throw new Error('README.md has no stack recipe line');
  return found[1]!.trim().split(/\s+/);
}

describeWithBackends("the README's stack recipe, as written", ['otelcol', 'jaeger', 'prometheus', 'alertmanager'], (bins) => {
  let stack: RunningStack;
  let recipe: DemoRun;

  beforeAll(async () => {
    stack = await startStack({ bins: { otelcol: bins.otelcol, jaeger: bins.jaeger, prometheus: bins.prometheus, alertmanager: bins.alertmanager } });
    recipe = await runDemo({ args: recipeArgs(), env: { OTEL_EXPORTER_OTLP_ENDPOINT: stack.otlpUrl, OTEL_METRIC_EXPORT_INTERVAL: '' } });
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('runs the streaming and MCP paths', () => {
    expect(recipeArgs()).toEqual(['--runs', '300', '--concurrency', '8', '--stream', '--mcp']);
    expect(recipe.exitCode).toBe(0);
  });

  it('gives data to every dashboard panel query, the MCP and streaming ones included', async () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThanOrEqual(76);
    const empty: string[] = [];
    for (const q of queries) {
      if ((await stack.prometheus.query(q.expr)).length === 0) empty.push(`${q.where}: ${q.expr}`);
    }
    expect(empty).toEqual([]);
  }, 120_000);

  it('gives data to every Grafana alert rule query but the spend spike, whose query holds its threshold (the recipe spends steadily)', async () => {
    const empty: string[] = [];
    for (const q of grafanaAlertQueries()) {
      if ((await stack.prometheus.query(q.expr)).length === 0) empty.push(q.where);
    }
    expect(empty).toEqual(['grafana alerting FootprintSpendSpikeByRoute A']);
  }, 120_000);
});
