/**
 * Whether message content (prompts, completions, tool arguments and results, provider error text,
 * what user code throws) may leave the process. The GenAI conventions define one environment
 * variable for it, read here by the edges that default to it (startTelemetry, tracingInstrument(),
 * the providers), once, when they are made; so the layers agree and none imports a layer above it.
 *
 * Error text is content too, unless footprint-otel worded it: its typed errors mark their class
 * (markOwnText) and the bridge exports their messages with capture off; any other thrown value
 * (a tool's, a custom provider's, a predicate's) is exported as its class and a fixed description.
 */

/** The env var the GenAI conventions define for content capture. */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

const CAPTURING_MODES = new Set(['span_only', 'span_and_event', 'true']);

/** True when the env var switches content capture on. */
export function captureFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[CAPTURE_CONTENT_ENV];
  return value !== undefined && CAPTURING_MODES.has(value.trim().toLowerCase());
}

const OWN_TEXT = Symbol.for('footprint-otel.own-text');

/** Marks an error class whose messages footprint-otel words itself (no user, model or secret text). */
export function markOwnText(errorClass: { prototype: object }): void {
  Object.defineProperty(errorClass.prototype, OWN_TEXT, { value: true });
}

/** True for an error of a class marked with markOwnText. */
export function hasOwnText(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[OWN_TEXT] === true;
}

/** The EventError flag for a thrown value: `{ ownText: true }` for footprint-otel's typed errors, else nothing. */
export function ownTextOf(error: unknown): { ownText?: true } {
  return hasOwnText(error) ? { ownText: true } : {};
}
