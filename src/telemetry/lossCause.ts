/**
 * Why an export failed, as the short `error.type` value the OTel semantic conventions give for
 * otel.sdk.exporter.*.exported: the HTTP status code ("500", "400"), "retryable_status" (429, 502,
 * 503 or 504 until the retries ran out: the OTLP exporter's final error no longer carries which),
 * "timeout", "refused" (nothing listening), "network" (reset, unknown host), "write_failed" (the
 * file default could not write), "rejected" (the collector accepted the request but rejected these
 * items: an OTLP partial success), or "export_failed" when the exporter said no more. Spans dropped at a full queue are "queue_full" and
 * spans still queued or in flight when the exit deadline passed are "exit_deadline".
 */
export type LossCause = string;

export const QUEUE_FULL = 'queue_full';
export const EXIT_DEADLINE = 'exit_deadline';
export const REJECTED = 'rejected';
const TIMEOUT = 'timeout';

/** The OTLP exporters' error for an HTTP answer carries the status as a number in `code`. */
export function lossCauseOf(error: unknown): LossCause {
  if (!(error instanceof Error)) return 'export_failed';
  if (error.name === 'LineWriteError') return 'write_failed';
  const status = (error as { code?: unknown }).code;
  if (typeof status === 'number' && status >= 100 && status <= 599) return String(status);
  if (error.message === 'Export failed with retryable status') return 'retryable_status';
  const text = describeChain(error);
  if (/ECONNREFUSED/.test(text)) return 'refused';
  if (/timeout|timed out|ETIMEDOUT|ESOCKETTIMEDOUT/i.test(text)) return TIMEOUT;
  if (/ECONNRESET|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|socket hang up/i.test(text)) return 'network';
  return 'export_failed';
}

/** Message and code of an error and its causes (the HTTP transport wraps the socket's error). */
function describeChain(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(`${current.name} ${current.message} ${typeof code === 'string' ? code : ''}`);
    const aggregate = (current as { errors?: unknown }).errors;
    if (Array.isArray(aggregate)) for (const inner of aggregate) parts.push(describeChain(inner));
  }
  return parts.join(' | ');
}

/** A human reading of a cause for the demo's summary: "HTTP 500", "timeout", "connection refused". */
export function describeCause(cause: LossCause): string {
  if (/^\d{3}$/.test(cause)) return `HTTP ${cause}`;
  const words: Record<string, string> = {
    refused: 'connection refused',
    retryable_status: 'HTTP 429/502/503/504 after retries',
    network: 'network error',
    write_failed: 'file write failed',
    rejected: 'rejected by the collector',
    export_failed: 'export failed',
    queue_full: 'span queue full',
    exit_deadline: 'not flushed by the exit deadline',
  };
  return words[cause] ?? cause;
}
