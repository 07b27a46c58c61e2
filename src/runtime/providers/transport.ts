/**
 * The transport settings every HTTP provider accepts, checked once when the provider is built (a
 * setting that cannot work is a ConfigError naming it, not a failure on every call) and resolved to
 * their defaults.
 */
import { ConfigError, numberSetting, RULES } from '../run/index.js';

export type FetchLike = typeof globalThis.fetch;

/** Transport settings every HTTP provider accepts. */
export interface TransportOptions {
  /**
   * Deadline for one attempt (ms). Default 120 000. `complete()`: connect, headers and the whole
   * body. `stream()`: connect and headers, then each wait for more of the body (a stream may run
   * longer than this as long as it keeps arriving).
   */
  timeoutMs?: number;
  /** Extra attempts after a retryable failure (0 to 100). Default 2, so at most 3 attempts. */
  maxRetries?: number;
  /** Backoff before the first retry (ms), doubling after that, with jitter. Default 200. */
  retryBaseMs?: number;
  /**
   * The most bytes a reply's body may have (`complete()`: the JSON answer; `stream()`: every byte of
   * the event stream together). Past it the body is no longer read, the connection is closed and the
   * call fails with a ProviderError `response_too_large`, never retried. Default 32 MiB (see
   * docs/streaming-providers.md for why).
   */
  maxResponseBytes?: number;
  /** The fetch to use (proxies, instrumentation, tests). Default: the global fetch at call time. */
  fetch?: FetchLike;
  /**
   * Keep the server's error text and unusable bodies on ProviderErrors (redacted of secrets either
   * way). Default: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, read once when the provider is made.
   */
  captureContent?: boolean;
}

/** The transport's option names, which every HTTP provider's options extend (run/knownOptions.ts). */
export const TRANSPORT_OPTIONS = ['timeoutMs', 'maxRetries', 'retryBaseMs', 'maxResponseBytes', 'fetch', 'captureContent'] as const satisfies readonly (keyof TransportOptions)[];

export interface TransportSettings {
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  maxResponseBytes: number;
  /** Undefined: the global fetch, read at call time (so a later instrumentation of it is used). */
  fetch?: FetchLike;
}

/**
 * 32 MiB: the longest replies today's models write (about 128k output tokens) are a few MB as one
 * JSON answer and about 30 MB as Chat Completions stream chunks (each token's chunk repeats the
 * id, model and choice envelope), so every real reply fits and a runaway one stops there.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The settings with their defaults; each goes through the runtime's one settings check (run/settings.ts). */
export function transportSettings(provider: string, options: TransportOptions): TransportSettings {
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new ConfigError(`${provider}: fetch must be a function like the global fetch`, { field: 'fetch' });
  }
  return {
    timeoutMs: numberSetting(provider, 'timeoutMs', options.timeoutMs, RULES.timeoutMs, 120_000),
    maxRetries: numberSetting(provider, 'maxRetries', options.maxRetries, RULES.maxRetries, 2),
    retryBaseMs: numberSetting(provider, 'retryBaseMs', options.retryBaseMs, RULES.delayMs, 200),
    maxResponseBytes: numberSetting(provider, 'maxResponseBytes', options.maxResponseBytes, { min: 1, max: Number.MAX_SAFE_INTEGER }, DEFAULT_MAX_RESPONSE_BYTES),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
}
