/**
 * wiring/ — how a run becomes a trace: the tracing instrument (runner runs), traceExecutor (plain
 * footprintjs executors), the traced run that owns one run's spans and picks its layout, the
 * footprintjs recorder it attaches, options from code and environment, the checkpoint carry, and
 * the guard that keeps the bridge from ever throwing into the app. Depends on events/, runtime/
 * (instruments, outcomes) and every other otel folder; nothing in otel/ depends on it.
 */
export { CARRY_MEMBERS, CARRY_TRACEPARENT, CARRY_TRACESTATE } from './carry.js';
export { DETAIL_ENV, type TraceDetail, type TracingOptions } from './options.js';
export { tracingFailures } from './safety.js';
export { traceExecutor, type TraceExecutorOptions } from './traceExecutor.js';
export { TRACE_RECORDER_ID } from './traceRecorder.js';
export { tracingInstrument, TRACING_INSTRUMENT_ID } from './tracingInstrument.js';
