/**
 * The OpenTelemetry bridge: footprint-otel runs (and plain footprintjs executors) as traces.
 * Register tracingInstrument() for runners, or wrap an executor with traceExecutor(). Tracing is on
 * only when an OTel SDK TracerProvider is registered (or one is passed in); see README.md here.
 */
export { tracingInstrument, TRACING_INSTRUMENT_ID } from './instrument.js';
export { traceExecutor, type TraceExecutorOptions } from './traceExecutor.js';
export { TRACE_RECORDER_ID } from './recorder.js';
export { DETAIL_ENV, type TraceDetail, type TracingOptions } from './options.js';
export { CARRY_MEMBERS, CARRY_TRACEPARENT, CARRY_TRACESTATE } from './tracedRun.js';
export { tracingFailures } from './safety.js';
export * as semconv from './semconv.js';
