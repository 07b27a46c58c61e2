/**
 * What both wire formats' stream parsers do with a server-sent event's data: parse its JSON (an
 * event that is not a JSON object fails the stream as `malformed_response`, naming which event it
 * was), and type an error the server reports inside a 2xx stream (Messages' `error` event, an
 * OpenAI-compatible server's `{"error": …}` chunk) as `stream_error`.
 */
import type { ProviderBoundary } from './boundary.js';
import { summarizeErrorBody } from './errorBody.js';
import type { ProviderError } from './errors.js';
import { retryableStatus } from './exchange.js';
import { isRecord } from './guards.js';

/** Error types (Messages', OpenAI's, Gemini's statuses) that say the same request may succeed later. */
const RETRYABLE_ERROR_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'rate_limit_exceeded', 'timeout_error', 'server_error', 'UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'INTERNAL', 'DEADLINE_EXCEEDED']);

/** The event's data as a JSON object; `ordinal` counts events from 1, for the message. */
export function eventJson(boundary: ProviderBoundary, data: string, ordinal: number): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw boundary.malformed(`event ${ordinal} of the stream is not JSON`, data);
  }
  if (!isRecord(parsed)) throw boundary.malformed(`event ${ordinal} of the stream is not a JSON object`, data);
  return parsed;
}

/**
 * The error an event reports: its error type and code in the message (the server's own message only
 * under content capture), retryable when the type or a numeric code says a later try may succeed.
 * The provider never retries it itself: parts of the reply were already handed out.
 */
export function streamError(boundary: ProviderBoundary, data: string, ordinal: number): ProviderError {
  const summary = summarizeErrorBody(data);
  const { type, code } = summary;
  // The Responses API names the kind in `code` (server_error), the others in `type`.
  const named = (label: string | undefined) => label !== undefined && RETRYABLE_ERROR_TYPES.has(label);
  const retryable = named(type) || named(code) || (code !== undefined && /^\d{3}$/.test(code) && retryableStatus(Number(code)));
  return boundary.error({
    kind: 'stream_error',
    retryable,
    message: `${boundary.provider}: the server reported an error in event ${ordinal} of the stream${boundary.describeErrorBody(summary)}`,
    raw: data,
  });
}
