// The alert rules are checked and unit-tested by the real promtool: `promtool check rules`,
// `promtool test rules` (every alert fires on a bad series, stays silent on a good one), a mutated
// threshold makes the tests fail (so they really pin behaviour), `promtool check config` accepts
// prometheus.yml (the promtool of the Prometheus 3 the stack runs), and amtool accepts
// alertmanager.yml. Needs scripts/build-backends.sh (fails under CI when missing).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, expect, it } from 'vitest';
import { describeWithBackends } from '../support/backends.js';
import { loadYaml, PATHS } from './stack-files.js';

function run(bin: string, args: string[], cwd?: string) {
  const r = spawnSync(bin, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'footprint-promtool-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describeWithBackends('promtool on the shipped rules', ['promtool'], (bins) => {
  it('check rules: the rule file is valid', () => {
    const r = run(bins.promtool, ['check', 'rules', PATHS.rules]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/SUCCESS: 6 rules found/);
  });

  it('test rules: every alert fires on bad series and stays silent on good ones', () => {
    const r = run(bins.promtool, ['test', 'rules', path.basename(PATHS.rulesTest)], PATHS.rulesDir);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('SUCCESS');
  });

  it('the unit tests cover every alert', () => {
    const tests = loadYaml(PATHS.rulesTest).tests as Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
    const firing = new Set(tests.flatMap((t) => t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname));
    const silent = new Set(tests.flatMap((t) => t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length === 0).map((a) => a.alertname));
    const alerts = (loadYaml(PATHS.rules).groups as Array<{ rules: Array<{ alert?: string }> }>).flatMap((g) => g.rules).map((r) => r.alert);
    for (const a of alerts) {
      expect(firing.has(a!), `${a} has a firing case`).toBe(true);
      expect(silent.has(a!), `${a} has a silent case`).toBe(true);
    }
  });

  it('test rules fails when a threshold drifts (the tests pin behaviour)', () => {
    const dir = mkdtempSync(path.join(tmp, 'mut-'));
    copyFileSync(PATHS.rulesTest, path.join(dir, 'footprint-alerts.test.yml'));
    const mutated = readFileSync(PATHS.rules, 'utf8').replace('> 3 * sum by', '> 5 * sum by');
    expect(mutated).not.toBe(readFileSync(PATHS.rules, 'utf8'));
    writeFileSync(path.join(dir, 'footprint-alerts.yml'), mutated);
    const r = run(bins.promtool, ['test', 'rules', 'footprint-alerts.test.yml'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FootprintSpendSpikeByRoute');
  });

  it('check config: prometheus.yml is valid, otlp: block included (rules resolved in the repo)', () => {
    const cfg = loadYaml(PATHS.prometheus);
    cfg.rule_files = [PATHS.rules];
    const file = path.join(tmp, 'prometheus.yml');
    writeFileSync(file, YAML.stringify(cfg));
    const r = run(bins.promtool, ['check', 'config', file]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/SUCCESS: 6 rules found/);
  });
});

describeWithBackends('amtool on the shipped Alertmanager config', ['amtool'], (bins) => {
  it('check-config: alertmanager.yml is valid', () => {
    const r = run(bins.amtool, ['check-config', PATHS.alertmanager]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('SUCCESS');
  });
});
