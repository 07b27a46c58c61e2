/**
 * traceExecutor(): traces any plain footprintjs FlowChartExecutor, no runtime needed. It wraps the
 * executor's run() and resume(): each call (when an OTel SDK is registered) opens a run span on the
 * caller's context, attaches the trace recorder, runs inside a new context so nothing leaks back to
 * the caller, and ends the run span with the outcome. A resume() on the same executor continues the
 * paused run's trace (a child of, and linked to, the paused run span). Detail and content capture
 * come from its options, else from the registered tracing instrument (settingsOfRun).
 *
 *   const executor = traceExecutor(new FlowChartExecutor(chart), { name: 'checkout' });
 *   await executor.run({ input });
 */
import { context, trace, type Link, type SpanContext } from '@opentelemetry/api';
import type { FlowChartExecutor } from 'footprintjs';
import { resolve, settle, type Settings, type TracingOptions } from './options.js';
import { registeredTracingSettings } from './tracingInstrument.js';
import { TRACE_RECORDER_ID } from './traceRecorder.js';
import { guard } from './safety.js';
import { ATTR_FOOTPRINT_LINK_TYPE, ATTR_FOOTPRINT_RESUMED } from '../encoding/index.js';
import { TracedRun } from './tracedRun.js';

export interface TraceExecutorOptions extends TracingOptions {
  /** Names the run span `run {name}`. Default 'flowchart'. */
  name?: string;
}

const TRACED = Symbol.for('footprint-otel.traced-executor');

export function traceExecutor<E extends FlowChartExecutor>(executor: E, options: TraceExecutorOptions = {}): E {
  const marked = executor as E & { [TRACED]?: true };
  if (marked[TRACED]) return executor;
  marked[TRACED] = true;
  const run = executor.run.bind(executor);
  const resume = executor.resume.bind(executor);
  let pausedRun: SpanContext | undefined;
  const fromEnvironment = settle(options);

  const traced = <T>(resuming: boolean, call: () => Promise<T>): Promise<T> => {
    const begun = guard('traceExecutor start', () => begin(resuming));
    if (!begun) {
      guard('traceExecutor detach', () => executor.detachCombinedRecorder(TRACE_RECORDER_ID));
      return call();
    }
    return begun.within(call).then(
      (result) => {
        const paused = executor.isPaused();
        guard('traceExecutor finish', () => {
          pausedRun = paused ? begun.spanContext() : undefined;
          begun.finish(paused ? { status: 'paused' } : { status: 'ok', output: '' });
        });
        return result;
      },
      (error: unknown) => {
        guard('traceExecutor finish', () => begun.finish({ status: 'failed', error }));
        throw error;
      },
    );
  };

  const begin = (resuming: boolean): TracedRun | undefined => {
    const resolved = resolve(settingsOfRun(options, fromEnvironment));
    if (!resolved) return undefined;
    const active = context.active();
    const paused = resuming ? pausedRun : undefined;
    const links: Link[] = paused ? [{ context: paused, attributes: { [ATTR_FOOTPRINT_LINK_TYPE]: 'paused_run' } }] : [];
    const begun = new TracedRun({
      source: 'executor',
      resolved,
      name: `run ${options.name ?? 'flowchart'}`,
      attributes: resuming ? { [ATTR_FOOTPRINT_RESUMED]: true } : {},
      parent: paused ? trace.setSpanContext(active, paused) : active,
      links,
    });
    if (begun.recorder) executor.attachCombinedRecorder(begun.recorder, { delivery: 'inline' });
    return begun;
  };

  executor.run = (opts) => traced(false, () => run(opts));
  executor.resume = (checkpoint, input, opts) => traced(true, () => resume(checkpoint, input, opts));
  return executor;
}

/**
 * What one run of a wrapped executor is traced with: the explicit options, else the registered
 * tracing instrument's settings (so startTelemetry's trace detail and content capture reach plain
 * charts too), else the environment as it was when the executor was wrapped.
 */
function settingsOfRun(options: TracingOptions, fromEnvironment: Settings): Settings {
  const registered = registeredTracingSettings();
  if (!registered) return fromEnvironment;
  return {
    detail: options.detail ?? registered.detail,
    capture: options.captureContent ?? registered.capture,
    semconv: options.semconv ?? registered.semconv,
    linkLimit: registered.linkLimit,
    tracerProvider: options.tracerProvider ?? registered.tracerProvider,
  };
}
