/**
 * The metric catalog is the one source of names: its Prometheus translation must equal the list the
 * dashboards and alert rules are checked against (test/stack/exported-metric-names.ts), the reference
 * table in src/otel/metrics/README.md must be the one generated from it, and the instruments a run
 * creates must match their catalog entries (unit, description, bucket advice).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, registerInstrument, scripted } from '../../../src/index.js';
import {
  METRIC_CATALOG,
  metricsInstrument,
  prometheusFamily,
  prometheusLabel,
  prometheusSeries,
} from '../../../src/otel/metrics/index.js';
import { GENAI_DEV_SCHEMA_URL, INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, SEMCONV_SCHEMA_URL } from '../../../src/otel/encoding/index.js';
import { SDK_METRICS } from '../../stack/exported-metric-names.js';
import { startMeter } from '../../support/meter.js';

describe('Prometheus names', () => {
  it('translate like the OTLP receivers do', () => {
    expect(prometheusFamily({ name: 'gen_ai.client.operation.duration', unit: 's' })).toBe('gen_ai_client_operation_duration_seconds');
    expect(prometheusFamily({ name: 'footprint.llm.cost.usd', unit: '{USD}' })).toBe('footprint_llm_cost_usd');
    expect(prometheusFamily({ name: 'x.cost', unit: 'USD' })).toBe('x_cost_USD');
    expect(prometheusFamily({ name: 'x.wait.seconds', unit: 's' })).toBe('x_wait_seconds');
    expect(prometheusSeries({ name: 'footprint.runs', unit: '{run}', kind: 'counter' })).toEqual(['footprint_runs_total']);
    expect(prometheusLabel('gen_ai.token.type')).toBe('gen_ai_token_type');
  });

  it('of the whole catalog equal the dashboards contract, label for label', () => {
    const fromCatalog: Record<string, string[]> = {};
    for (const spec of METRIC_CATALOG) {
      const labels = spec.attributes.map(prometheusLabel);
      for (const series of prometheusSeries(spec)) {
        fromCatalog[series] = series.endsWith('_bucket') ? [...labels, 'le'] : labels;
      }
    }
    const sorted = (record: Readonly<Record<string, readonly string[]>>) =>
      Object.fromEntries(Object.entries(record).map(([name, labels]) => [name, [...labels].sort()]));
    expect(sorted(fromCatalog)).toEqual(sorted(SDK_METRICS));
  });

  it('are unique', () => {
    const names = METRIC_CATALOG.map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('the README reference', () => {
  it('is the table generated from the catalog', () => {
    const code = (text: string) => `\`${text}\``;
    const rows = METRIC_CATALOG.map((spec) =>
      [
        code(spec.name),
        `${spec.kind} ${code(spec.unit)}`,
        prometheusSeries(spec).map(code).join('<br>'),
        spec.attributes.map(code).join(', ') || '—',
        spec.description,
      ].join(' | '),
    );
    const table = [
      '| instrument | kind, unit | Prometheus series | attributes | what it counts |',
      '|---|---|---|---|---|',
      ...rows.map((row) => `| ${row} |`),
    ].join('\n');
    const readme = readFileSync(path.join(import.meta.dirname, '../../../src/otel/metrics/README.md'), 'utf8');
    const between = readme.split('<!-- metrics-table:start -->\n')[1]?.split('\n<!-- metrics-table:end -->')[0];
    expect(between).toBe(table);
  });
});

describe('instruments created by a run', () => {
  const meter = startMeter();
  const unregister = registerInstrument(metricsInstrument());
  afterAll(async () => {
    unregister();
    await meter.shutdown();
  });

  it('carry the unit, description and buckets of their catalog entry', async () => {
    await Agent.create({ provider: scripted({ replies: ['ok'] }), model: 'm', id: 'a' }).build().run('hi');
    const c = await meter.collect();
    expect(c.names()).toEqual([
      'footprint.llm.cost.usd',
      'footprint.run.duration',
      'footprint.runs',
      'gen_ai.client.inference.duration',
      'gen_ai.client.inference.usage.input_tokens',
      'gen_ai.client.inference.usage.output_tokens',
      'gen_ai.invocation.duration',
      'gen_ai.invoke_agent.inference_calls',
      'gen_ai.invoke_agent.tool_calls',
    ]);
    for (const name of c.names()) {
      const spec = METRIC_CATALOG.find((s) => s.name === name)!;
      const metric = c.metric(name)!;
      expect(metric.descriptor).toMatchObject({ unit: spec.unit, description: spec.description });
      for (const series of c.series(name)) {
        expect(series.histogram?.buckets.boundaries).toEqual(spec.buckets ? [...spec.buckets] : undefined);
        for (const key of Object.keys(series.attributes)) expect(spec.attributes).toContain(key);
      }
    }
  });

  it('record each metric under the schema URL of the conventions its catalog entry follows (v1.41.0 unless it names the development channel)', async () => {
    await Agent.create({ provider: scripted({ replies: ['ok'] }), model: 'm', id: 'a' }).build().run('hi');
    const { resourceMetrics } = await meter.reader.collect();
    const bySchema: Record<string, string[]> = {};
    for (const { scope, metrics } of resourceMetrics.scopeMetrics) {
      expect([scope.name, scope.version]).toEqual([INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION]);
      bySchema[String(scope.schemaUrl)] = metrics.map((m) => m.descriptor.name).sort();
    }
    const want: Record<string, string[]> = {};
    for (const name of Object.values(bySchema).flat()) {
      const spec = METRIC_CATALOG.find((s) => s.name === name)!;
      (want[spec.schemaUrl ?? SEMCONV_SCHEMA_URL] ??= []).push(name);
    }
    expect(bySchema).toEqual(Object.fromEntries(Object.entries(want).map(([url, names]) => [url, names.sort()])));
    expect(Object.keys(bySchema).sort()).toEqual([GENAI_DEV_SCHEMA_URL, SEMCONV_SCHEMA_URL].sort());
    expect(GENAI_DEV_SCHEMA_URL).toBe('https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev');
  });
});
