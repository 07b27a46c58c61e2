/**
 * How a catalog entry is named once Prometheus (OTLP receiver, default UnderscoreEscapingWithSuffixes)
 * or VictoriaMetrics (-opentelemetry.usePrometheusNaming) stores it: dots become underscores, a UCUM
 * unit adds its suffix (s -> _seconds), curly-brace units add nothing, counters end in _total and
 * histograms become _bucket/_sum/_count series. Dashboards and alert rules query these names.
 */
import type { MetricSpec } from './catalog.js';

const UNIT_SUFFIXES: Readonly<Record<string, string>> = { s: 'seconds', ms: 'milliseconds', By: 'bytes', '1': '' };

/** The Prometheus form of an attribute key (footprint.trip.kind -> footprint_trip_kind). */
export function prometheusLabel(key: string): string {
  return key.replace(/[^a-zA-Z0-9_]/g, '_');
}

/** The metric family name, before the per-series _total/_bucket/_sum/_count endings. */
export function prometheusFamily(spec: Pick<MetricSpec, 'name' | 'unit'>): string {
  const base = prometheusLabel(spec.name);
  const unit = spec.unit.startsWith('{') ? '' : (UNIT_SUFFIXES[spec.unit] ?? spec.unit);
  return unit === '' || base.endsWith(`_${unit}`) ? base : `${base}_${unit}`;
}

/** Every series name the entry produces in Prometheus. */
export function prometheusSeries(spec: Pick<MetricSpec, 'name' | 'unit' | 'kind'>): string[] {
  const family = prometheusFamily(spec);
  return spec.kind === 'counter' ? [`${family}_total`] : [`${family}_bucket`, `${family}_sum`, `${family}_count`];
}
