/**
 * OTLP partial success: a collector may accept a request (HTTP 200, gRPC OK) yet reject some of its
 * items, saying how many and why in the response's partial_success (the OTLP specification, "Partial
 * Success"). The OTel exporters only log it and report the export a success, so the items would
 * count as delivered. The exporters built in otlpExporters.ts read each response through
 * readingRejections() and hand the rejection on with the export's result, for the export guard to
 * count (cause `rejected`). A partial success rejecting nothing is the collector's warning.
 */
import type { ExportResult } from '@opentelemetry/core';
import type { ISerializer } from '@opentelemetry/otlp-transformer';

export interface Rejection {
  /** Items the collector says it rejected (a whole number; the guard caps it at the request's size). */
  rejected: number;
  /** The collector's error_message ('' when it gave none). */
  message: string;
}

/** An export's result, with what the collector rejected when it answered with a partial success. */
export interface AnsweredExportResult extends ExportResult {
  rejection?: Rejection;
}

export type RejectedCountField = 'rejectedSpans' | 'rejectedDataPoints';

/** The partial success in a decoded response, if it has one worth reporting. */
function rejectionIn(response: unknown, field: RejectedCountField): Rejection | undefined {
  const partial = (response as { partialSuccess?: Record<string, unknown> } | null | undefined)?.partialSuccess;
  if (partial === null || typeof partial !== 'object') return undefined;
  const rejected = wholeCount(partial[field]);
  const message = typeof partial.errorMessage === 'string' ? partial.errorMessage : '';
  return rejected > 0 || message !== '' ? { rejected, message } : undefined;
}

/**
 * The serializer, reading each response it decodes for a partial success; take() returns (and
 * forgets) the latest. The OTLP export delegate decodes a response and calls the export's callback in
 * one synchronous step, so the callback's take() always reads its own export's answer.
 */
export function readingRejections<Request, Response>(
  serializer: ISerializer<Request, Response>,
  field: RejectedCountField,
): { serializer: ISerializer<Request, Response>; take: () => Rejection | undefined } {
  let latest: Rejection | undefined;
  return {
    serializer: {
      serializeRequest: (request) => serializer.serializeRequest(request),
      deserializeResponse: (data) => {
        const response = serializer.deserializeResponse(data);
        latest = rejectionIn(response, field);
        return response;
      },
    },
    take: () => {
      const taken = latest;
      latest = undefined;
      return taken;
    },
  };
}

/** int64 counts arrive as numbers, decimal strings (OTLP JSON) or Long objects (protobuf); anything else is 0. */
function wholeCount(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' || isLong(value) ? Number(String(value)) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

function isLong(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'low' in value && 'high' in value;
}
