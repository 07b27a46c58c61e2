/**
 * Whether message content (prompts, completions, tool arguments and results, provider error text) may
 * leave the process. The GenAI conventions define one environment variable for it; every layer that
 * must decide (the providers' error boundary, the telemetry files' permissions, the bridge's spans)
 * reads it here, so the layers agree and none imports a layer above it.
 */

/** The env var the GenAI conventions define for content capture. */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

const CAPTURING_MODES = new Set(['span_only', 'span_and_event', 'true']);

/** True when the env var switches content capture on. */
export function captureFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[CAPTURE_CONTENT_ENV];
  return value !== undefined && CAPTURING_MODES.has(value.trim().toLowerCase());
}
