// The Prometheus-side contract (exported-metric-names.ts) and the bridge's instrument catalog
// (src/otel/metrics/catalog.ts) describe the same metrics: translating each catalog entry with the
// OTLP->Prometheus rules (dots -> underscores, `s` -> _seconds, brace units dropped, _total on
// counters, _bucket/_sum/_count on histograms) yields exactly the contract's names and labels.
// backend-e2e.test.ts shows the translation rules on a real backend.
import { describe, expect, it } from 'vitest';
import { METRIC_CATALOG } from '../../src/otel/metrics/catalog.js';
import { SDK_METRICS } from './exported-metric-names.js';

const UNIT_SUFFIX: Record<string, string> = { s: '_seconds', ms: '_milliseconds', By: '_bytes' };

function promNames(spec: { name: string; kind: string; unit: string }): string[] {
  const unit = spec.unit.startsWith('{') || spec.unit === '1' || spec.unit === '' ? '' : UNIT_SUFFIX[spec.unit] ?? `_${spec.unit}`;
  const base = spec.name.replace(/\./g, '_') + unit;
  return spec.kind === 'counter' ? [`${base}_total`] : [`${base}_bucket`, `${base}_sum`, `${base}_count`];
}

describe('exported-metric-names.ts vs the bridge catalog', () => {
  it('has the same Prometheus series names', () => {
    expect(METRIC_CATALOG.flatMap(promNames).sort()).toEqual(Object.keys(SDK_METRICS).sort());
  });

  it('has the same labels per series', () => {
    for (const spec of METRIC_CATALOG) {
      const labels = spec.attributes.map((a) => a.replace(/\./g, '_')).sort();
      for (const n of promNames(spec)) {
        expect([...SDK_METRICS[n]!].filter((l) => l !== 'le').sort(), n).toEqual(labels);
      }
    }
  });
});
