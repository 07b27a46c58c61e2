/**
 * What a traced run is configured with, and where each choice comes from: explicit options first,
 * then the environment (FOOTPRINT_OTEL_DETAIL, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT,
 * OTEL_SEMCONV_STABILITY_OPT_IN, OTEL_SPAN_LINK_COUNT_LIMIT),
 * then defaults. The environment is read once, when tracingInstrument() or traceExecutor() is
 * called (settle), never during a run. Whether tracing is on is decided at each run start: without
 * an explicit TracerProvider and with no SDK registered behind the API's global proxy, there is
 * nothing to trace into.
 */
import { diag, ProxyTracerProvider, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import {
  CAPTURE_CONTENT_ENV,
  captureFromEnv,
  INSTRUMENTATION_NAME,
  INSTRUMENTATION_VERSION,
  SEMCONV_SCHEMA_URL,
  semconvModeFromEnv,
  type SemconvMode,
} from '../encoding/index.js';
import type { TraceDetail } from '../placement/index.js';

/**
 * 'full': a span per stage execution plus the GenAI spans. Runner runs use scope + emit hooks and
 * typed events only (the narrative stays off); plain charts (traceExecutor) add the flow hooks for
 * subflow and fork spans and decision events (footprintjs's narrative is on, about 7–10 µs per stage).
 * 'semantic': only the run, invoke_agent, invoke_workflow, chat and execute_tool spans, derived from
 * typed events (no flow hooks, so the narrative stays off).
 */
export type { TraceDetail };

export const DETAIL_ENV = 'FOOTPRINT_OTEL_DETAIL';
/** The SDK's span link limit (the OTel environment specification); lineage links stay under it. */
export const LINK_LIMIT_ENV = 'OTEL_SPAN_LINK_COUNT_LIMIT';
/** The SDK's default span link limit. */
const DEFAULT_LINK_LIMIT = 128;

export interface TracingOptions {
  /** Default: FOOTPRINT_OTEL_DETAIL, else 'full'. */
  detail?: TraceDetail;
  /** Record prompts, completions, tool arguments and results. Default: the GenAI capture env var. */
  captureContent?: boolean;
  /** Trace into this provider instead of the globally registered one. */
  tracerProvider?: TracerProvider;
  /**
   * How renamed span-event names and attribute keys are spelled (docs/conventions.md): 'current',
   * 'v1.41' or 'both'. Default: OTEL_SEMCONV_STABILITY_OPT_IN, then 'current'.
   */
  semconv?: SemconvMode;
}

/** The options with every choice made: what tracingInstrument() and traceExecutor() keep. */
export interface Settings {
  detail: TraceDetail;
  capture: boolean;
  semconv: SemconvMode;
  /** Links a span may carry (OTEL_SPAN_LINK_COUNT_LIMIT, else the SDK's 128). */
  linkLimit: number;
  tracerProvider?: TracerProvider;
}

export interface Resolved {
  tracer: Tracer;
  detail: TraceDetail;
  capture: boolean;
  semconv: SemconvMode;
  linkLimit: number;
}

let warnedDetail = false;
let warnedEventMode = false;

/**
 * Content capture from the environment. `span_and_event` asks for the content also as the v1.41
 * `gen_ai.client.inference.operation.details` event, whose message attributes MUST be structured on
 * events: span events cannot carry structured values and the bridge depends on the trace API only
 * (no Logs API), so the content goes on spans only, and a warning says so once.
 */
function resolveCapture(env: NodeJS.ProcessEnv): boolean {
  if (!warnedEventMode && env[CAPTURE_CONTENT_ENV]?.trim().toLowerCase() === 'span_and_event') {
    warnedEventMode = true;
    diag.warn(
      `footprint-otel: ${CAPTURE_CONTENT_ENV}=span_and_event records content on spans only: the ` +
        'gen_ai.client.inference.operation.details event needs structured attributes (the Logs API), which span events cannot carry',
    );
  }
  return captureFromEnv(env);
}

function resolveDetail(detail: TraceDetail | undefined, env: NodeJS.ProcessEnv): TraceDetail {
  if (detail === 'full' || detail === 'semantic') return detail;
  const fromEnv = env[DETAIL_ENV]?.trim().toLowerCase();
  if (fromEnv === undefined || fromEnv === '' || fromEnv === 'full') return 'full';
  if (fromEnv === 'semantic') return 'semantic';
  if (!warnedDetail) {
    warnedDetail = true;
    diag.warn(`footprint-otel: ${DETAIL_ENV}="${fromEnv}" is not 'full' or 'semantic'; using 'full'`);
  }
  return 'full';
}

/** The span link limit as the SDK reads it: a non-negative integer, else its default. */
function resolveLinkLimit(env: NodeJS.ProcessEnv): number {
  const value = Number(env[LINK_LIMIT_ENV]?.trim() || Number.NaN);
  return Number.isSafeInteger(value) && value >= 0 ? value : DEFAULT_LINK_LIMIT;
}

/** The tracer to use, or undefined when no SDK is there to receive spans (tracing stays off). */
function resolveTracer(provider?: TracerProvider): Tracer | undefined {
  const options = { schemaUrl: SEMCONV_SCHEMA_URL };
  if (provider) return provider.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, options);
  const global = trace.getTracerProvider();
  if (global instanceof ProxyTracerProvider) {
    return global.getDelegateTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, options);
  }
  return global.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, options);
}

/** The options settled against the environment, once. */
export function settle(options: TracingOptions, env: NodeJS.ProcessEnv = process.env): Settings {
  return {
    detail: resolveDetail(options.detail, env),
    capture: options.captureContent ?? resolveCapture(env),
    semconv: options.semconv ?? semconvModeFromEnv(env),
    linkLimit: resolveLinkLimit(env),
    tracerProvider: options.tracerProvider,
  };
}

/** The settings with the tracer of this run, or undefined when tracing is off for it. */
export function resolve(settings: Settings): Resolved | undefined {
  const tracer = resolveTracer(settings.tracerProvider);
  if (!tracer) return undefined;
  return { tracer, detail: settings.detail, capture: settings.capture, semconv: settings.semconv, linkLimit: settings.linkLimit };
}
