/**
 * footprint-otel: the public entry. The runtime, the typed event catalog, the route recorder and the
 * OpenTelemetry bridge. Importing it registers the default instruments (tracing when an OTel SDK is
 * registered, metrics when a MeterProvider is, and the route recorder for agents with a skill graph).
 */
import { metricsInstrument, tracingInstrument } from './otel/index.js';
import { defaultRouteGuard } from './recorders/index.js';
import { registerInstrument, setDefaultRouteGuard } from './runtime/index.js';

export * from './events/index.js';
export * from './runtime/index.js';
export * from './recorders/index.js';
export {
  tracingInstrument,
  traceExecutor,
  tracingFailures,
  semconv,
  TRACE_RECORDER_ID,
  TRACING_INSTRUMENT_ID,
  DETAIL_ENV,
  type TraceDetail,
  type TracingOptions,
  type TraceExecutorOptions,
} from './otel/index.js';
export {
  METRICS,
  METRIC_CATALOG,
  METRIC_ATTRIBUTES,
  MAX_ATTRIBUTE_CHARS,
  METRICS_INSTRUMENT_ID,
  METER_NAME,
  metricsInstrument,
  prometheusFamily,
  prometheusLabel,
  prometheusSeries,
  TOKEN_BUCKETS,
  DURATION_BUCKETS,
  RUN_DURATION_BUCKETS,
  type MetricSpec,
  type MetricKey,
  type MetricsInstrumentOptions,
} from './otel/index.js';

setDefaultRouteGuard(defaultRouteGuard);
registerInstrument(tracingInstrument());
registerInstrument(metricsInstrument());
