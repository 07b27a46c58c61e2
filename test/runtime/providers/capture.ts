/**
 * Content capture switched on for one test through the same environment variable the tracing bridge
 * reads; `endCapture` (in afterEach) switches it back off.
 */
const CAPTURE_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

export function captureContent(): void {
  process.env[CAPTURE_ENV] = 'span_only';
}

export function endCapture(): void {
  delete process.env[CAPTURE_ENV];
}
