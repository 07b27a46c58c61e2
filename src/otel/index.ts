/**
 * The OpenTelemetry bridge: footprint-otel runs (and plain footprintjs executors) as traces, and
 * their metrics. Register tracingInstrument() for runners, or wrap an executor with traceExecutor().
 * Tracing is on only when an OTel SDK TracerProvider is registered (or one is passed in); see
 * README.md here.
 *
 * Folders, bottom up (each index says what it depends on; nothing imports past an index):
 *   encoding/   names, keys and bounded values          (events, @opentelemetry/api, semantic-conventions)
 *   placement/  where spans go: run spans and layouts   (events, encoding)
 *   genai/      what goes on them: typed-event table     (events, encoding, placement)
 *   wiring/     a run as a trace: instrument, executor   (events, runtime, all of the above)
 *   metrics/    a run as metrics                         (events, runtime, encoding)
 */
export {
  CARRY_MEMBERS,
  CARRY_TRACEPARENT,
  CARRY_TRACESTATE,
  DETAIL_ENV,
  traceExecutor,
  tracingFailures,
  tracingInstrument,
  TRACE_RECORDER_ID,
  TRACING_INSTRUMENT_ID,
  type TraceDetail,
  type TraceExecutorOptions,
  type TracingOptions,
} from './wiring/index.js';
export { boundString, MAX_NAME, OPT_IN_BOTH, OPT_IN_CURRENT, OPT_IN_V1_41, SEMCONV_OPT_IN_ENV, semconv, type SemconvMode } from './encoding/index.js';
export * from './metrics/index.js';
