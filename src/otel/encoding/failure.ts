/**
 * Marking a span failed: ERROR status with a bounded message, the low-cardinality `error.type`, and
 * the exception as a span event. The caller takes the time first, because recordException reads the
 * error's stack, which can take many milliseconds under source maps and must not stretch the span.
 *
 * One failure is one `exception` event, on the span where it happened (the chat span of a failed
 * model call, else the stage that threw, else the run span); the spans it failed on its way up get
 * ERROR and `error.type` only (markFailed).
 */
import { SpanStatusCode, type Exception, type Span } from '@opentelemetry/api';
import { boundString } from './bounded.js';
import { ERROR_TYPE } from './semconv.js';

export function recordFailure(span: Span, error: unknown, time: number, type?: string): void {
  markFailed(span, failureOf(error, type));
  span.recordException(toException(error), time);
}

/** A span a failure passed through (recorded where it happened): ERROR and `error.type`, no exception event. */
export function markFailed(span: Span, failure: { message: string; type: string }): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: boundString(failure.message) });
  span.setAttribute(ERROR_TYPE, boundString(failure.type));
}

/** The failure of `error` as markFailed takes it. */
export function failureOf(error: unknown, type?: string): { message: string; type: string } {
  return { message: messageOf(error), type: type ?? typeOf(error) };
}

/** A low-cardinality type: an `errorType` the error declares (runtime errors do), else its name. */
function typeOf(error: unknown): string {
  const declared = typeof error === 'object' && error !== null ? (error as { errorType?: unknown }).errorType : undefined;
  if (typeof declared === 'string' && declared !== '') return declared;
  if (error instanceof Error) return error.name;
  if (typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string') {
    return (error as { name: string }).name;
  }
  return '_OTHER';
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return typeof error === 'string' ? error : 'failed';
}

/** The exception as a span event: message and stack bounded, whatever the error carried. */
function toException(error: unknown): Exception {
  const stack = error instanceof Error && typeof error.stack === 'string' ? boundString(error.stack, MAX_STACK) : undefined;
  return { name: boundString(typeOf(error)), message: boundString(messageOf(error), MAX_MESSAGE), stack };
}

const MAX_MESSAGE = 2_048;
const MAX_STACK = 8_192;
