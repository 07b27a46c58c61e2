// A real Prometheus 3 with no data loads the shipped rule file with
// an Alertmanager target, evaluates every rule without error, and executes every PromQL expression
// the repo ships (dashboards, Grafana alerts, datasource queries, Grafana macros substituted):
// beyond parsing, this catches type errors such as a bad vector match or function argument.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackends, startAlertmanager, startPrometheus, startWebhookReceiver, stopAll, waitFor, type Backend, type Prometheus, type WebhookReceiver } from '../support/backends.js';
import { allShippedQueries } from './promql.js';
import { PATHS, prometheusAlertRules } from './stack-files.js';

describeWithBackends('Prometheus with the shipped rules', ['prometheus', 'alertmanager'], (bins) => {
  let sink: WebhookReceiver | undefined;
  let am: Backend | undefined;
  let prom: Prometheus | undefined;

  beforeAll(async () => {
    sink = await startWebhookReceiver();
    am = await startAlertmanager({ webhookUrl: sink.url }, bins.alertmanager);
    prom = await startPrometheus({ ruleFiles: [PATHS.rules], alertmanagerTarget: new URL(am.url).host, evaluationInterval: '1s' }, bins.prometheus);
  }, 60_000);
  afterAll(() => stopAll(prom, am, sink));

  it('loads and evaluates every alert rule without error', async () => {
    const names = prometheusAlertRules().map((r) => r.alert).sort();
    const rules = await waitFor(
      async () => {
        const all = (await prom!.rules()).flatMap((g) => g.rules);
        return all.length === names.length && all.every((r) => r.health === 'ok') ? all : undefined;
      },
      { what: 'all rules evaluated with health ok', timeoutMs: 20_000 },
    );
    expect(rules.map((r) => r.name).sort()).toEqual(names);
    expect(rules.every((r) => r.type === 'alerting')).toBe(true);
  });

  it('has the Alertmanager as an active target', async () => {
    const want = new URL(am!.url).host;
    await waitFor(
      async () => {
        const res = (await (await fetch(`${prom!.url}/api/v1/alertmanagers`)).json()) as { data: { activeAlertmanagers: Array<{ url: string }> } };
        return res.data.activeAlertmanagers.some((a) => new URL(a.url).host === want);
      },
      { what: `alertmanager ${want} discovered`, timeoutMs: 15_000 },
    );
  });

  it('executes every shipped PromQL expression', async () => {
    const failures: string[] = [];
    for (const q of allShippedQueries()) {
      const body = await prom!.queryRaw(q.expr);
      if (body.status !== 'success') failures.push(`${q.where}: ${body.errorType}: ${body.error}\n  ${q.expr}`);
    }
    expect(failures).toEqual([]);
  });
});
