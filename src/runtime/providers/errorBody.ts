/**
 * What a provider's error body may say about itself outside the process. The body is model-side
 * output (it can echo the prompt, the key or user data), so by default only its error code and type
 * are taken, and only when they look like identifiers; the human message is added only under content
 * capture. Shapes read: `{error: {message, type, code}}` (OpenAI, Anthropic, vLLM), `{error: {code,
 * message, status, details}}` (Gemini: its status is the type, a RetryInfo detail how long to wait),
 * `{error: "…"}` (Ollama) and `{message}`.
 */
import { isRecord } from './guards.js';

export interface ErrorBodySummary {
  type?: string;
  code?: string;
  /** The provider's human message, unbounded and unredacted: content, for capture only. */
  message?: string;
  /** How long the body asks to wait before a retry (ms): Google's `google.rpc.RetryInfo` detail. */
  retryDelayMs?: number;
}

/** Error codes and types are short identifiers; anything else is not a label but content. */
const IDENTIFIER = /^[A-Za-z0-9_.:-]{1,64}$/;

export function summarizeErrorBody(text: string): ErrorBodySummary {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isRecord(body)) return {};
  const error = body.error;
  if (typeof error === 'string') return { message: error };
  const detail = isRecord(error) ? error : body;
  const type = identifier(detail.type === 'error' ? undefined : (detail.type ?? (typeof detail.status === 'string' ? detail.status : undefined)));
  const code = identifier(detail.code);
  const message = typeof detail.message === 'string' ? detail.message : undefined;
  const retryDelayMs = retryInfoDelay(detail.details);
  return {
    ...(type === undefined ? {} : { type }),
    ...(code === undefined ? {} : { code }),
    ...(message === undefined ? {} : { message }),
    ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
  };
}

/**
 * Google's APIs (Gemini) say how long to wait in the body, not in Retry-After: a `details` entry of
 * `@type` `type.googleapis.com/google.rpc.RetryInfo` whose `retryDelay` is a protobuf Duration in
 * JSON (`"37s"`, `"0.5s"`).
 */
function retryInfoDelay(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const entry of details) {
    if (!isRecord(entry) || typeof entry['@type'] !== 'string' || !entry['@type'].endsWith('google.rpc.RetryInfo')) continue;
    const match = typeof entry.retryDelay === 'string' ? DURATION.exec(entry.retryDelay) : null;
    if (match) return Number(match[1]) * 1000;
  }
  return undefined;
}

const DURATION = /^(\d+(?:\.\d+)?)s$/;

function identifier(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  return typeof text === 'string' && IDENTIFIER.test(text) ? text : undefined;
}

/** `(type invalid_request_error, code invalid_api_key)`, or '' when the body named neither. */
export function labelsOf(summary: ErrorBodySummary): string {
  const labels = [summary.type === undefined ? '' : `type ${summary.type}`, summary.code === undefined ? '' : `code ${summary.code}`].filter(
    (label) => label !== '',
  );
  return labels.length === 0 ? '' : ` (${labels.join(', ')})`;
}
