// PromQL linting for the stack files: collects every PromQL expression the repo ships (dashboards,
// template variables, Prometheus rules, Grafana alert rules, datasource trace->metrics queries, the
// docs pages' promql examples),
// turns Grafana macros into parseable stand-ins, parses with the Prometheus project's own lezer
// grammar and reports syntax errors, metric names and label names per selector.
import { parser } from '@prometheus-io/lezer-promql';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dashboardFiles, grafanaAlertGroups, loadJson, loadYaml, PATHS, prometheusAlertRules, repoPath, type Json } from './stack-files.js';

export interface ShippedQuery {
  /** Where it lives, for messages: file + panel/rule. */
  where: string;
  /** The expression as shipped (may contain Grafana macros). */
  raw: string;
  /** Parseable/executable PromQL (macros substituted). */
  expr: string;
}

/** Built-in Grafana variables (`$__name`, `${__name...}`) that may appear in queries and links. */
export const GRAFANA_BUILTINS = new Set(['__range', '__range_s', '__range_ms', '__rate_interval', '__interval', '__interval_ms', '__from', '__to', '__data', '__field', '__value', '__series', '__url_time_range', '__all_variables', '__tags', '__dashboard', '__org', '__user', '__timeFilter']);

/** Template variables referenced as $name / ${name} / ${name:fmt} / ${name.path} (not $1 capture refs). */
export function referencedVariables(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\$\{([A-Za-z_]\w*)[^}]*\}|\$([A-Za-z_]\w*)/g)) out.add((m[1] ?? m[2])!);
  return [...out];
}

/**
 * Grafana query text -> plain PromQL: range macros become 5m, `$__tags` (tracesToMetrics) a
 * matcher, other variables the regex `.*` (they only ever appear inside label-matcher strings).
 */
export function substituteGrafanaMacros(text: string): string {
  return text
    .replace(/\$\$/g, '$') // provisioning-file escape
    .replace(/\$\{__(?:rate_interval|interval|range)\}|\$__(?:rate_interval|interval|range)\b/g, '5m')
    .replace(/\$\{__tags\}|\$__tags\b/g, 'service_name="x"')
    .replace(/\$\{[A-Za-z_]\w*[^}]*\}|\$[A-Za-z_]\w*/g, '.*');
}

export interface Selector {
  metric: string | undefined;
  /** Label names used in its matchers. */
  labels: string[];
  text: string;
}

export interface PromQLLint {
  errors: string[];
  selectors: Selector[];
  /** Label names in by/without/on/ignoring/group_left/group_right lists. */
  groupingLabels: string[];
  metrics: string[];
}

export function lintPromQL(expr: string): PromQLLint {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const selectors: Selector[] = [];
  const groupingLabels: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) {
        errors.push(`syntax error at ${node.from}: …${expr.slice(Math.max(0, node.from - 30), node.from)}⟨here⟩${expr.slice(node.from, node.from + 20)}…`);
        return;
      }
      if (node.name === 'VectorSelector') {
        const sel: Selector = { metric: undefined, labels: [], text: expr.slice(node.from, node.to) };
        const ident = node.node.getChild('Identifier');
        if (ident) sel.metric = expr.slice(ident.from, ident.to);
        const matchers = node.node.getChild('LabelMatchers');
        for (const m of matchers?.getChildren('UnquotedLabelMatcher') ?? []) {
          const ln = m.getChild('LabelName');
          if (ln) sel.labels.push(expr.slice(ln.from, ln.to));
        }
        for (const m of matchers?.getChildren('QuotedLabelMatcher') ?? []) errors.push(`quoted label matcher not allowed: ${expr.slice(m.from, m.to)}`);
        for (const m of matchers?.getChildren('QuotedLabelName') ?? []) errors.push(`quoted metric name not allowed: ${expr.slice(m.from, m.to)}`);
        selectors.push(sel);
      }
      if (node.name === 'GroupingLabels') {
        for (const ln of node.node.getChildren('LabelName')) groupingLabels.push(expr.slice(ln.from, ln.to));
      }
    },
  });
  if (expr.trim() === '') errors.push('empty expression');
  const metrics = [...new Set(selectors.map((s) => s.metric).filter((m): m is string => !!m))];
  return { errors, selectors, groupingLabels, metrics };
}

// ---------------------------------------------------------------------------------------------
// Collectors

function isPromDatasource(ds: Json): boolean {
  return ds && typeof ds === 'object' && ds.uid === 'prometheus';
}

/** PromQL of every dashboard panel target and query variable. */
export function dashboardQueries(): ShippedQuery[] {
  const out: ShippedQuery[] = [];
  for (const file of dashboardFiles()) {
    const d = loadJson(file);
    const name = path.basename(file);
    const panels: Json[] = (d.panels ?? []).flatMap((p: Json) => [p, ...(p.panels ?? [])]);
    for (const p of panels) {
      for (const t of p.targets ?? []) {
        const ds = t.datasource ?? p.datasource;
        if (!isPromDatasource(ds)) continue;
        out.push({ where: `${name} panel ${p.id} "${p.title}" ${t.refId}`, raw: t.expr, expr: substituteGrafanaMacros(t.expr) });
      }
    }
    for (const v of d.templating?.list ?? []) {
      if (v.type !== 'query' || !isPromDatasource(v.datasource)) continue;
      const q: string = typeof v.query === 'string' ? v.query : v.query?.query;
      const m = /^label_values\((.+),\s*([A-Za-z_]\w*)\)$/.exec(q.trim());
      if (!m) throw new Error(`${name} variable ${v.name}: only label_values(selector, label) is supported, got ${q}`);
      out.push({ where: `${name} variable $${v.name}`, raw: q, expr: substituteGrafanaMacros(m[1]!) });
    }
  }
  return out;
}

export function ruleQueries(): ShippedQuery[] {
  return prometheusAlertRules().map((r) => ({ where: `footprint-alerts.yml ${r.alert}`, raw: r.expr, expr: r.expr }));
}

export function grafanaAlertQueries(): ShippedQuery[] {
  const out: ShippedQuery[] = [];
  for (const g of grafanaAlertGroups()) {
    for (const r of g.rules) {
      for (const d of r.data) {
        if (d.datasourceUid !== 'prometheus') continue;
        out.push({ where: `grafana alerting ${r.title} ${d.refId}`, raw: d.model.expr, expr: substituteGrafanaMacros(d.model.expr) });
      }
    }
  }
  return out;
}

export function datasourceQueries(): ShippedQuery[] {
  const doc = loadYaml(PATHS.grafanaDatasources);
  const out: ShippedQuery[] = [];
  for (const ds of doc.datasources ?? []) {
    for (const q of ds.jsonData?.tracesToMetrics?.queries ?? []) {
      out.push({ where: `datasource ${ds.name} tracesToMetrics "${q.name}"`, raw: q.query, expr: substituteGrafanaMacros(q.query) });
    }
  }
  return out;
}

/** The ```promql examples of the docs pages (an alert a reader copies must query real names). */
export function docsQueries(): ShippedQuery[] {
  const dir = repoPath('docs');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) =>
      [...readFileSync(path.join(dir, name), 'utf8').matchAll(/^```promql\n([\s\S]*?)^```$/gm)].map((match, i) => ({
        where: `docs/${name} example ${i + 1}`,
        raw: match[1]!,
        expr: match[1]!,
      })),
    );
}

export function allShippedQueries(): ShippedQuery[] {
  return [...dashboardQueries(), ...ruleQueries(), ...grafanaAlertQueries(), ...datasourceQueries(), ...docsQueries()];
}
