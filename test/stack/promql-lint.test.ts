// Every PromQL expression the repo ships (dashboards, template variables, Prometheus alert rules,
// Grafana alert rules, Jaeger->metrics datasource queries, docs examples) parses with the Prometheus grammar and
// queries only metric names and labels of the contract in exported-metric-names.ts; none filters
// or groups on an SDK label. Catches `_seconds`/`_USD`/label drift before a panel goes blank.
import { describe, expect, it } from 'vitest';
import {
  allowedLabels,
  COLLECTOR_METRICS,
  EXPORTED_METRIC_NAMES,
  FORBIDDEN_LABEL_PREFIXES,
  RESOURCE_LABELS,
  SDK_METRICS,
  TELEMETRY_SELF_METRICS,
} from './exported-metric-names.js';
import { allShippedQueries, dashboardQueries, datasourceQueries, docsQueries, grafanaAlertQueries, lintPromQL, ruleQueries, substituteGrafanaMacros } from './promql.js';

const ALL_LABELS = new Set<string>([
  ...RESOURCE_LABELS,
  'le',
  ...Object.values(SDK_METRICS).flat(),
  ...Object.values(TELEMETRY_SELF_METRICS).flat(),
  ...Object.values(COLLECTOR_METRICS).flat(),
]);
const queries = allShippedQueries();

describe('the PromQL linter itself', () => {
  it('reports syntax errors, metric names, matcher and grouping labels', () => {
    const ok = lintPromQL('sum by (le, footprint_route) (rate(footprint_llm_cost_usd_total{service_name=~".*"}[5m])) / on() group_left() sum(footprint_runs_total)');
    expect(ok.errors).toEqual([]);
    expect(ok.metrics.sort()).toEqual(['footprint_llm_cost_usd_total', 'footprint_runs_total']);
    expect(ok.selectors[0]!.labels).toEqual(['service_name']);
    expect(ok.groupingLabels).toEqual(['le', 'footprint_route']);
    expect(lintPromQL('sum(rate(foo[5m])').errors).toEqual(['syntax error at 17: …sum(rate(foo[5m])⟨here⟩…']);
    expect(lintPromQL('foo{').errors).toEqual(['syntax error at 4: …foo{⟨here⟩…']);
  });

  it('substitutes Grafana macros into parseable PromQL', () => {
    expect(substituteGrafanaMacros('rate(x{a=~"$service", b=~"${route:regex}"}[$__rate_interval]) offset $__range')).toBe('rate(x{a=~".*", b=~".*"}[5m]) offset 5m');
    expect(substituteGrafanaMacros('rate(x{$$__tags}[5m])')).toBe('rate(x{service_name="x"}[5m])');
    expect(substituteGrafanaMacros('label_replace(x, "a", "$1", "b", "(.*)")')).toContain('"$1"');
  });
});

describe('shipped PromQL', () => {
  it('covers every place that ships queries', () => {
    expect(dashboardQueries().length).toBeGreaterThan(40);
    expect(ruleQueries().map((q) => q.where)).toHaveLength(6);
    expect(grafanaAlertQueries()).toHaveLength(6);
    expect(datasourceQueries().map((q) => q.where)).toEqual([
      'datasource Jaeger tracesToMetrics "LLM cost per hour (this route)"',
      'datasource Jaeger tracesToMetrics "p95 span latency (span metrics)"',
      'datasource Jaeger tracesToMetrics "Calls per minute (span metrics)"',
    ]);
    expect(docsQueries().map((q) => q.where)).toEqual(['docs/streaming-telemetry.md example 1', 'docs/streaming-telemetry.md example 2']);
  });

  it.each(queries.map((q) => [q.where, q] as const))('%s parses and uses only contract metrics and labels', (_where, q) => {
    const lint = lintPromQL(q.expr);
    expect(lint.errors, q.expr).toEqual([]);
    expect(lint.metrics.length, `no metric selected in ${q.expr}`).toBeGreaterThan(0);
    for (const sel of lint.selectors) {
      expect(sel.metric, `selector without a metric name: ${sel.text}`).toBeDefined();
      expect(EXPORTED_METRIC_NAMES, `unknown metric in ${sel.text}`).toContain(sel.metric);
      const allowed = allowedLabels(sel.metric!);
      for (const l of sel.labels) expect(allowed, `${sel.metric} has no label ${l} (${sel.text})`).toContain(l);
    }
    for (const l of lint.groupingLabels) expect(ALL_LABELS.has(l), `grouping on unknown label ${l}`).toBe(true);
    for (const prefix of FORBIDDEN_LABEL_PREFIXES) expect(q.raw.includes(prefix), `${q.where} touches ${prefix}*`).toBe(false);
  });

  it('covers every contract metric family somewhere (dashboards or rules)', () => {
    const used = new Set(queries.flatMap((q) => lintPromQL(q.expr).metrics));
    const families = (names: string[]) => new Set(names.map((n) => n.replace(/_(bucket|sum|count)$/, '')));
    const unused = [...families(EXPORTED_METRIC_NAMES as string[])].filter((f) => ![...used].some((u) => u === f || u.startsWith(`${f}_`)));
    expect(unused).toEqual([]);
  });
});
