/** footprint-otel's metrics: the run instrument that records them and the metric catalog as data. */
export { metricsInstrument, METRICS_INSTRUMENT_ID, METER_NAME, type MetricsInstrumentOptions } from './instrument.js';
export {
  METRICS,
  METRIC_CATALOG,
  TOKEN_BUCKETS,
  DURATION_BUCKETS,
  RUN_DURATION_BUCKETS,
  type MetricSpec,
  type MetricKey,
} from './catalog.js';
export { ATTR as METRIC_ATTRIBUTES, MAX_ATTRIBUTE_CHARS } from './attributes.js';
export { prometheusFamily, prometheusLabel, prometheusSeries } from './prometheusNames.js';
