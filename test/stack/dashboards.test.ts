// Every dashboards/*.json is a Grafana dashboard model Grafana 13 will load as intended: identity
// (uid/title/tags/schemaVersion), panels with unique ids, a non-overlapping 24-column gridPos,
// targets on the provisioned datasource uids, template variables that exist, and the required
// content per dashboard (exemplars on span-metrics latency, Jaeger search links for routes/trips).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAFANA_BUILTINS, referencedVariables } from './promql.js';
import { dashboardFiles, loadJson, type Json } from './stack-files.js';

const REQUIRED = ['agent-runs-overview', 'routes-and-cost', 'loop-guards', 'llm-performance'];
const DATASOURCE_UIDS = new Set(['prometheus', 'jaeger']);
const files = dashboardFiles();
const dashboards = files.map((f) => [path.basename(f, '.json'), loadJson(f) as Json] as const);

function panelsOf(d: Json): Json[] {
  return (d.panels ?? []).flatMap((p: Json) => [p, ...(p.panels ?? [])]);
}

function allLinks(p: Json): Json[] {
  return [...(p.fieldConfig?.defaults?.links ?? []), ...(p.fieldConfig?.overrides ?? []).flatMap((o: Json) => (o.properties ?? []).filter((x: Json) => x.id === 'links').flatMap((x: Json) => x.value)), ...(p.links ?? [])];
}

describe('dashboards/', () => {
  it('holds the four footprint-otel dashboards with unique uids', () => {
    expect(dashboards.map(([n]) => n).sort()).toEqual([...REQUIRED].sort());
    const uids = dashboards.map(([, d]) => d.uid);
    expect(new Set(uids).size).toBe(uids.length);
  });
});

describe.each(dashboards)('dashboard %s', (name, d) => {
  const panels = panelsOf(d);
  const vars = new Set<string>((d.templating?.list ?? []).map((v: Json) => v.name));

  it('has identity fields Grafana needs', () => {
    expect(d.uid).toBe(`footprint-${name}`);
    expect(d.uid.length).toBeLessThanOrEqual(40);
    expect(typeof d.title).toBe('string');
    expect(d.title).toMatch(/^footprint-otel \/ /);
    expect(d.tags).toContain('footprint-otel');
    expect(d.schemaVersion).toBeGreaterThanOrEqual(39);
    expect(d.schemaVersion).toBeLessThanOrEqual(42);
    expect(d.id).toBeNull(); // provisioning assigns ids
    expect(d.time).toMatchObject({ from: expect.any(String), to: expect.any(String) });
  });

  it('has panels with unique ids and a valid, non-overlapping layout', () => {
    expect(panels.length).toBeGreaterThan(5);
    const ids = panels.map((p) => p.id);
    expect(ids.every((i) => Number.isInteger(i) && i > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of panels) {
      const g = p.gridPos;
      expect(g, `panel ${p.id} gridPos`).toMatchObject({ h: expect.any(Number), w: expect.any(Number), x: expect.any(Number), y: expect.any(Number) });
      expect(g.x + g.w, `panel ${p.id} exceeds 24 columns`).toBeLessThanOrEqual(24);
      expect(g.h).toBeGreaterThan(0);
    }
    for (let i = 0; i < panels.length; i++) {
      for (let j = i + 1; j < panels.length; j++) {
        const a = panels[i]!.gridPos, b = panels[j]!.gridPos;
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `panels ${panels[i]!.id} and ${panels[j]!.id} overlap`).toBe(false);
      }
    }
  });

  it('gives every non-row panel a title, a provisioned datasource and targets', () => {
    for (const p of panels.filter((x) => x.type !== 'row')) {
      expect(p.title, `panel ${p.id}`).toBeTruthy();
      expect(DATASOURCE_UIDS.has(p.datasource?.uid), `panel ${p.id} datasource ${JSON.stringify(p.datasource)}`).toBe(true);
      expect(Array.isArray(p.targets) && p.targets.length > 0, `panel ${p.id} has no targets`).toBe(true);
      const refIds = p.targets.map((t: Json) => t.refId);
      expect(new Set(refIds).size, `panel ${p.id} refIds ${refIds}`).toBe(refIds.length);
      for (const t of p.targets) {
        const uid = (t.datasource ?? p.datasource).uid;
        expect(DATASOURCE_UIDS.has(uid)).toBe(true);
        if (uid === 'prometheus') {
          expect(typeof t.expr === 'string' && t.expr.length > 0, `panel ${p.id} ${t.refId} expr`).toBe(true);
        } else {
          expect(t.queryType, `jaeger target in panel ${p.id}`).toBe('search');
        }
      }
    }
  });

  it('only references template variables it defines (or Grafana built-ins)', () => {
    const texts: string[] = [];
    for (const p of panels) {
      for (const t of p.targets ?? []) texts.push(t.expr ?? '', t.service ?? '', t.tags ?? '', t.legendFormat ?? '');
      for (const l of allLinks(p)) texts.push(l.url ?? '');
      texts.push(p.title ?? '');
    }
    for (const v of d.templating?.list ?? []) texts.push(typeof v.query === 'string' ? v.query : v.query?.query ?? '');
    const unknown = texts.flatMap(referencedVariables).filter((n) => !vars.has(n) && !GRAFANA_BUILTINS.has(n));
    expect(unknown).toEqual([]);
  });

  it('defines its template variables on the Prometheus datasource', () => {
    expect(vars.has('service')).toBe(true);
    for (const v of d.templating.list) {
      if (v.type === 'query') expect(v.datasource?.uid).toBe('prometheus');
      expect(['query', 'custom']).toContain(v.type);
    }
  });
});

describe('dashboard content', () => {
  const byName = Object.fromEntries(dashboards);
  const jaegerLinks = (d: Json) => panelsOf(d).flatMap(allLinks).map((l: Json) => String(l.url));

  it('llm-performance shows span-metrics latency with exemplars and the SDK histogram', () => {
    const targets = panelsOf(byName['llm-performance']).flatMap((p) => p.targets ?? []);
    expect(targets.some((t: Json) => t.exemplar === true && /traces_span_metrics_duration_seconds_bucket/.test(t.expr))).toBe(true);
    // Either mode's name, per series (a both-mode process's v1.41-mode series is dropped by the `or`).
    expect(
      targets.some((t: Json) => /histogram_quantile\(0\.95,.*\(rate\(gen_ai_client_inference_duration_seconds_bucket\{[^}]*\}\[[^\]]+\]\) or rate\(gen_ai_client_operation_duration_seconds_bucket\{/.test(t.expr)),
    ).toBe(true);
    expect(targets.some((t: Json) => /error_type!=""/.test(t.expr))).toBe(true);
    expect(targets.some((t: Json) => /gen_ai_client_token_usage_sum/.test(t.expr) && /footprint_route, gen_ai_token_type/.test(t.expr))).toBe(true);
  });

  it('llm-performance shows p50 and p95 time to first chunk of streamed calls, by model and by route', () => {
    const panels = panelsOf(byName['llm-performance']).filter((p) => /time to first chunk/.test(p.title ?? ''));
    const quantiles = panels.map((p) => p.targets.map((t: Json) => /^histogram_quantile\((0\.\d+), sum by \(le, (\w+)\) \(\(rate\(gen_ai_client_inference_time_to_first_chunk_seconds_bucket\{[^}]*\}\[\$__rate_interval\]\) or rate\(gen_ai_client_operation_time_to_first_chunk_seconds_bucket\{/.exec(t.expr)?.slice(1)));
    expect(quantiles).toEqual([
      [['0.50', 'gen_ai_request_model'], ['0.95', 'gen_ai_request_model']],
      [['0.50', 'footprint_route'], ['0.95', 'footprint_route']],
    ]);
    expect(panels.map((p) => p.fieldConfig.defaults.unit)).toEqual(['s', 's']);
  });

  it('routes-and-cost links each route to its traces in Jaeger search', () => {
    const links = jaegerLinks(byName['routes-and-cost']);
    expect(links.some((u) => u.startsWith('http://localhost:16686/search?service=') && u.includes('tags=%7B%22footprint.route%22%3A%22'))).toBe(true);
    const table = panelsOf(byName['routes-and-cost']).find((p) => p.type === 'table');
    expect([table?.title, table?.targets.map((t: Json) => t.refId)], 'a routes table').toEqual([
      'Routes in range (click a route for its traces in Jaeger)',
      ['A', 'B', 'C', 'D'],
    ]);
  });

  it('loop-guards links trips to Jaeger by footprint.trip.kinds and queries Jaeger for tripped runs', () => {
    const d = byName['loop-guards'];
    expect(jaegerLinks(d).some((u) => u.startsWith('http://localhost:16686/search?') && u.includes('footprint.trip.kinds'))).toBe(true);
    const jaegerTargets = panelsOf(d).flatMap((p) => p.targets ?? []).filter((t: Json) => t.datasource?.uid === 'jaeger');
    expect(jaegerTargets.some((t: Json) => /footprint\.trip\.kinds=/.test(t.tags))).toBe(true);
    // Jaeger needs one service: the variable feeding it must be single-valued.
    expect(d.templating.list.find((v: Json) => v.name === 'service').multi).toBe(false);
  });

  it('agent-runs-overview covers runs/min, outcomes, p50/p95 duration, spend and trips', () => {
    const exprs = panelsOf(byName['agent-runs-overview']).flatMap((p) => p.targets ?? []).map((t: Json) => t.expr).join('\n');
    for (const re of [/rate\(footprint_runs_total/, /footprint_run_outcome/, /histogram_quantile\(0\.50,.*footprint_run_duration_seconds_bucket/, /histogram_quantile\(0\.95,.*footprint_run_duration_seconds_bucket/, /max_over_time\(footprint_llm_cost_usd_total\{[^}]*\}\[\$__range\]\) - min_over_time\(footprint_llm_cost_usd_total/, /footprint_route_trips_total/]) {
      expect(exprs).toMatch(re);
    }
  });

  it('agent-runs-overview shows MCP tool call rate, errors and latency by server and tool, and the servers’ own handling time', () => {
    const exprs = panelsOf(byName['agent-runs-overview']).flatMap((p) => p.targets ?? []).map((t: Json) => t.expr).join('\n');
    for (const re of [
      /sum by \(footprint_mcp_server, gen_ai_tool_name\) \(rate\(mcp_client_operation_duration_seconds_count\{[^}]*mcp_method_name="tools\/call"/,
      /sum by \(footprint_mcp_server, gen_ai_tool_name, error_type\) \(rate\(mcp_client_operation_duration_seconds_count\{[^}]*error_type!=""/,
      /histogram_quantile\(0\.95, sum by \(le, footprint_mcp_server, gen_ai_tool_name\) \(rate\(mcp_client_operation_duration_seconds_bucket/,
      /histogram_quantile\(0\.95, sum by \(le, footprint_mcp_server, gen_ai_tool_name\) \(rate\(mcp_server_operation_duration_seconds_bucket/,
    ]) {
      expect(exprs).toMatch(re);
    }
  });
});
