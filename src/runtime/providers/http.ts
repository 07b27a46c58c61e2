/**
 * The HTTP plumbing both wire-format providers share: one JSON POST per attempt with a deadline,
 * the caller's AbortSignal wired to the real fetch (cancelling it cancels the request on the wire),
 * wrapped in bounded retries. Every way it can fail comes out as a typed ProviderError — never a bare
 * fetch, abort or JSON error — made by the provider's boundary, so no secret leaves with it; the
 * providers themselves only translate shapes.
 */
import type { ProviderBoundary } from './boundary.js';
import { labelsOf, summarizeErrorBody } from './errorBody.js';
import type { ProviderError } from './errors.js';
import { ConfigError } from '../run/errors.js';
import { isRecord } from './guards.js';
import { numberSetting, RULES } from '../run/settings.js';
import { cancelled, hintDelay, withRetry } from './retry.js';

export type FetchLike = typeof globalThis.fetch;

/** Transport settings every HTTP provider accepts. */
export interface TransportOptions {
  /** Deadline for one attempt: connect, headers and the whole body (ms, 1 to 2 147 483 647). Default 120 000. */
  timeoutMs?: number;
  /** Extra attempts after a retryable failure (0 to 100). Default 2, so at most 3 attempts. */
  maxRetries?: number;
  /** Backoff before the first retry (ms), doubling after that, with jitter. Default 200. */
  retryBaseMs?: number;
  /** The fetch to use (proxies, instrumentation, tests). Default: the global fetch at call time. */
  fetch?: FetchLike;
}

export interface JsonPost {
  boundary: ProviderBoundary;
  /** The request URL (no userinfo); messages only ever show the boundary's recorded form. */
  url: string;
  recordedUrl: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_RETRY_BASE_MS = 200;
/** How much of a provider's error message goes into ProviderError.message (under content capture). */
const MAX_DETAIL_CHARS = 500;

/** The transport settings with their defaults, checked once when the provider is created. */
export interface Transport {
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  fetch?: FetchLike;
}

/** Checks and completes `options` (ConfigError naming the field for one that cannot work). */
export function transportOf(provider: string, options: TransportOptions): Transport {
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new ConfigError(`${provider}: fetch must be a function like the global fetch`, { field: 'fetch' });
  }
  return {
    timeoutMs: numberSetting(provider, 'timeoutMs', options.timeoutMs, RULES.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxRetries: numberSetting(provider, 'maxRetries', options.maxRetries, RULES.maxRetries, DEFAULT_MAX_RETRIES),
    retryBaseMs: numberSetting(provider, 'retryBaseMs', options.retryBaseMs, RULES.delayMs, DEFAULT_RETRY_BASE_MS),
    fetch: options.fetch,
  };
}

/** POSTs `post.body` as JSON with retries; resolves to the parsed JSON of a 2xx answer. */
export function postJson(post: JsonPost, transport: Transport): Promise<unknown> {
  return withRetry(() => attempt(post, transport.timeoutMs, transport.fetch ?? globalThis.fetch), {
    provider: post.boundary.provider,
    maxRetries: transport.maxRetries,
    baseMs: transport.retryBaseMs,
    signal: post.signal,
  });
}

async function attempt(post: JsonPost, timeoutMs: number, fetchImpl: FetchLike): Promise<unknown> {
  const { boundary, signal } = post;
  const { provider } = boundary;
  if (signal?.aborted) throw cancelled(provider, signal.reason);

  // One controller per attempt, aborted by whichever comes first: the caller or the deadline.
  const controller = new AbortController();
  let stoppedBy: 'caller' | 'deadline' | undefined;
  const stop = (by: 'caller' | 'deadline') => {
    stoppedBy ??= by;
    controller.abort();
  };
  const onCallerAbort = () => stop('caller');
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(() => stop('deadline'), timeoutMs);

  try {
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(post.url, {
        method: 'POST',
        headers: post.headers,
        body: JSON.stringify(post.body),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (error) {
      if (stoppedBy === 'caller') throw cancelled(provider, signal?.reason);
      if (stoppedBy === 'deadline') {
        throw boundary.error({
          kind: 'timeout',
          message: `${provider}: no complete answer within ${timeoutMs} ms`,
          retryable: true,
          cause: error,
        });
      }
      throw boundary.error({
        kind: 'network',
        message: `${provider}: request to ${post.recordedUrl} failed (${networkDetail(error)})`,
        retryable: true,
        cause: error,
      });
    }
    if (!response.ok) throw httpError(boundary, response, text);
    try {
      return JSON.parse(text);
    } catch {
      // The parser's own message quotes the body, so it is not kept as the cause.
      throw boundary.malformed(`HTTP ${response.status} answer is not JSON`, text);
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }
}

/**
 * An HTTP failure: status and the body's error type and code; the provider's own message only under
 * content capture (the boundary redacts secrets from it either way).
 */
function httpError(boundary: ProviderBoundary, response: Response, text: string): ProviderError {
  const { status } = response;
  const summary = summarizeErrorBody(text);
  const detail = summary.message !== undefined && boundary.captureBodies() ? `: ${boundary.redact(summary.message).slice(0, MAX_DETAIL_CHARS)}` : '';
  const error = boundary.error({
    kind: 'http',
    status,
    retryable: status === 408 || status === 409 || status === 429 || status >= 500,
    message: `${boundary.provider}: HTTP ${status}${labelsOf(summary)}${detail}`,
    raw: text,
  });
  const wait = retryAfterMs(response.headers.get('retry-after'));
  return wait === undefined ? error : hintDelay(error, wait);
}

/** Retry-After is either delay-seconds or an HTTP date. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** fetch hides the socket error (ECONNREFUSED, ENOTFOUND, ...) in `cause`. */
function networkDetail(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (isRecord(cause) && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
