/**
 * Marking a span failed: ERROR status with a bounded message, the low-cardinality `error.type`, and
 * the exception as a span event. The caller takes the time first, because recordException reads the
 * error's stack, which can take many milliseconds under source maps and must not stretch the span.
 *
 * One failure is one `exception` event, on the span where it happened (the chat span of a failed
 * model call, else the stage that threw, else the run span); the spans it failed on its way up get
 * ERROR and `error.type` only (markFailed).
 *
 * What user code throws is content (a tool's `new Error('db password=…')`): the writers here take a
 * failure's exported view (events/exportedView.ts), which with content capture off is its class and
 * type and WITHHELD_MESSAGE, its stack as frames only; footprint-otel's own typed errors keep their
 * messages. The model and listeners still get the whole text, in the process.
 */
import { SpanStatusCode, type Exception, type Span } from '@opentelemetry/api';
import { thrownType, type EventPayloads } from '../../events/index.js';
import { boundString } from './bounded.js';
import { ATTR_ERROR_TYPE } from './semconv.js';

type ToolStatus = EventPayloads['footprint.call.tool_end']['status'];

/** Tool-call statuses that are failures: one exception event on the execute_tool span. */
export const FAILED_TOOL_STATUSES: ReadonlySet<string> = new Set<ToolStatus>(['error', 'invalid_args', 'unknown_tool', 'timeout']);
/**
 * Tool calls that did not fail but did not run to a result: cut short by the run's cancellation (the
 * run's one exception event is on the stage that stopped), or never run past the reply's cap (a
 * burst of them must not become a burst of exception events). ERROR and error.type only.
 */
export const UNRUN_TOOL_STATUSES: ReadonlySet<string> = new Set<ToolStatus>(['cancelled', 'too_many_calls']);

export function recordFailure(span: Span, error: unknown, time: number, type?: string): void {
  markFailed(span, failureOf(error, type));
  span.recordException(toException(error), time);
}

/** A span a failure passed through (recorded where it happened): ERROR and `error.type`, no exception event. */
export function markFailed(span: Span, failure: { message: string; type: string }): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: boundString(failure.message) });
  span.setAttribute(ATTR_ERROR_TYPE, boundString(failure.type));
}

/** The failure of `error` as markFailed takes it. */
export function failureOf(error: unknown, type?: string): { message: string; type: string } {
  return { message: messageOf(error), type: type ?? thrownType(error) };
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
  return { name: boundString(thrownType(error)), message: boundString(messageOf(error), MAX_MESSAGE), stack };
}

const MAX_MESSAGE = 2_048;
const MAX_STACK = 8_192;
