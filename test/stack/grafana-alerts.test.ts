// The Grafana-managed alert rules (deploy/grafana/provisioning/alerting/) are a faithful copy of
// the Prometheus rules, which are the source of truth: same alert set, same metrics and grouping,
// same `for` and severity, threshold C consistent with the rule's comparison; the A/B/C shape
// Grafana's file provisioning expects; links to dashboard panels that exist; and no `$` where
// Grafana would expand it as an environment variable.
import { describe, expect, it } from 'vitest';
import { lintPromQL } from './promql.js';
import { dashboardFiles, durationSeconds, grafanaAlertGroups, loadJson, loadYaml, PATHS, prometheusAlertRules, readText, type GrafanaRule } from './stack-files.js';

const promRules = prometheusAlertRules();
const groups = grafanaAlertGroups();
const grafanaRules: GrafanaRule[] = groups.flatMap((g) => g.rules);
const byTitle = new Map(grafanaRules.map((r) => [r.title, r]));

/** Labels of the outermost `by (...)` clauses, as a sorted set. */
function groupingSet(expr: string): string[] {
  return [...new Set(lintPromQL(expr).groupingLabels)].sort();
}

describe('Grafana alert provisioning', () => {
  it('has apiVersion 1 and groups with org, folder and interval', () => {
    expect(loadYaml(PATHS.grafanaAlerting).apiVersion).toBe(1);
    for (const g of groups) {
      expect(g.orgId).toBe(1);
      expect(g.folder).toBeTruthy();
      expect(durationSeconds(g.interval)).toBeGreaterThan(0);
    }
    const uids = grafanaRules.map((r) => r.uid);
    expect(new Set(uids).size).toBe(uids.length);
    for (const u of uids) expect(u.length).toBeLessThanOrEqual(40);
  });

  it('mirrors exactly the Prometheus alert set', () => {
    expect(grafanaRules.map((r) => r.title).sort()).toEqual(promRules.map((r) => r.alert).sort());
    expect(promRules.map((r) => r.alert).sort()).toEqual([
      'FootprintEscalationRateHigh',
      'FootprintLLMErrorRate',
      'FootprintPingPongTrip',
      'FootprintRejectedCapTrips',
      'FootprintRunawayAgent',
      'FootprintSpendSpikeByRoute',
    ]);
  });

  it.each(promRules.map((r) => [r.alert!, r] as const))('%s: same metrics, grouping, for, severity and threshold', (name, prom) => {
    const g = byTitle.get(name)!;
    expect(g.condition).toBe('C');
    const [a, b, c] = g.data;
    expect(a).toMatchObject({ refId: 'A', datasourceUid: 'prometheus', model: { instant: true } });
    expect(b).toMatchObject({ refId: 'B', datasourceUid: '__expr__', model: { type: 'reduce', expression: 'A' } });
    expect(c).toMatchObject({ refId: 'C', datasourceUid: '__expr__', model: { type: 'threshold', expression: 'B' } });

    expect(lintPromQL(a!.model.expr).metrics.sort()).toEqual(lintPromQL(prom.expr).metrics.sort());
    expect(groupingSet(a!.model.expr)).toEqual(groupingSet(prom.expr));
    expect(durationSeconds(g.for)).toBe(durationSeconds(prom.for));
    expect(g.labels?.severity).toBe(prom.labels?.severity);
    expect(g.noDataState).toBe('OK');

    const [evaluator] = c!.model.conditions.map((x: { evaluator: { type: string; params: number[] } }) => x.evaluator);
    expect(evaluator.type).toBe('gt');
    const threshold = evaluator.params[0];
    if (threshold === 0) {
      // A must be the comparison itself (or a plain count) so that "> 0" means "the rule matched".
      expect(/>\s*[\d.]+/.test(a!.model.expr) || /\)\s*>\s*0\s*$/.test(prom.expr.trim())).toBe(true);
    } else {
      expect(prom.expr).toMatch(new RegExp(`>\\s*${String(threshold).replace('.', '\\.')}\\b`));
    }
    expect(g.annotations?.summary).toBeTruthy();
    expect(g.annotations?.description).toBeTruthy();
    expect(g.annotations?.runbook).toBe(prom.annotations?.runbook);
  });

  it('links each rule to a dashboard panel that exists', () => {
    const panelsByUid = new Map<string, Set<number>>();
    for (const f of dashboardFiles()) {
      const d = loadJson(f);
      panelsByUid.set(d.uid, new Set((d.panels ?? []).map((p: { id: number }) => p.id)));
    }
    for (const r of grafanaRules) {
      const uid = r.annotations?.__dashboardUid__;
      expect(panelsByUid.has(uid!), `${r.title} -> dashboard ${uid}`).toBe(true);
      expect(panelsByUid.get(uid!)!.has(Number(r.annotations?.__panelId__)), `${r.title} -> panel ${r.annotations?.__panelId__}`).toBe(true);
    }
  });

  it('puts `$` only inside annotation templates (Grafana expands $VARS elsewhere)', () => {
    for (const r of grafanaRules) {
      const { annotations, ...rest } = r;
      expect(JSON.stringify(rest), r.title).not.toContain('$');
      for (const v of Object.values(annotations ?? {})) expect(v, r.title).not.toContain('${');
    }
    expect(readText(PATHS.grafanaAlerting)).not.toContain('${');
  });
});
