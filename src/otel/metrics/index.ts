/**
 * metrics/ — a run as metrics: the run instrument that records them (one typed handler per event in
 * runRecorder.ts), the metric catalog as data (names, units, buckets, descriptions; it also builds
 * the reference table and the Prometheus names), the metric attribute keys and the trip series primer.
 * Depends on events/, runtime/ (instruments, outcomes) and encoding/ (provider names).
 */
export { metricsInstrument, METRICS_INSTRUMENT_ID, METER_NAME, type MetricsInstrumentOptions } from './metricsInstrument.js';
export {
  METRICS,
  METRIC_CATALOG,
  TOKEN_BUCKETS,
  DURATION_BUCKETS,
  RUN_DURATION_BUCKETS,
  MCP_DURATION_BUCKETS,
  type MetricSpec,
  type MetricKey,
} from './catalog.js';
export { ATTR as METRIC_ATTRIBUTES, MAX_ATTRIBUTE_CHARS } from './metricAttributes.js';
export { MAX_OUTSIDE_VALUES, OTHER_VALUE } from './outsideValues.js';
export { createCounter, createHistogram } from './instrumentSet.js';
export { prometheusFamily, prometheusLabel, prometheusSeries } from './prometheusNames.js';
