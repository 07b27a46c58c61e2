/**
 * Bounded retry for model calls. A failed call is tried again only when its ProviderError says
 * `retryable`, at most `maxRetries` more times, waiting an exponential backoff with jitter (or the
 * server's own Retry-After hint), every wait capped. The caller's AbortSignal ends everything: no
 * attempt ever starts after it fired, and a backoff wait in progress is cut short.
 */
import { isProviderError, ProviderError } from './errors.js';

/** Longest wait between two attempts, whatever the backoff or the server asks for (ms). */
const MAX_DELAY_MS = 30_000;

/** Server-requested delays (Retry-After), keyed by the error that carried them. */
const delayHints = new WeakMap<ProviderError, number>();

/** Records that the server asked to wait `ms` before trying again after `error`. */
export function hintDelay(error: ProviderError, ms: number): ProviderError {
  delayHints.set(error, ms);
  return error;
}

/** The error for a call the caller cancelled through its AbortSignal. */
export function cancelled(provider: string, reason: unknown): ProviderError {
  return new ProviderError({ provider, kind: 'aborted', message: `${provider}: model request cancelled`, cause: reason });
}

export interface RetryPolicy {
  provider: string;
  /** Extra attempts after the first one. */
  maxRetries: number;
  /** Backoff before the first retry (ms); it doubles for each further one, then gets jitter. */
  baseMs: number;
  signal?: AbortSignal;
}

export async function withRetry<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      const giveUp =
        !isProviderError(error) || !error.retryable || retry >= policy.maxRetries || policy.signal?.aborted === true;
      if (giveUp) throw error;
      await pause(delayBefore(retry, error, policy.baseMs), policy);
    }
  }
}

function delayBefore(retry: number, error: ProviderError, baseMs: number): number {
  const hinted = delayHints.get(error);
  if (hinted !== undefined) return Math.min(hinted, MAX_DELAY_MS);
  const ceiling = Math.min(baseMs * 2 ** retry, MAX_DELAY_MS);
  // "Equal jitter": half the ceiling for sure, the other half at random, so clients that failed
  // together do not retry together.
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function pause(ms: number, { provider, signal }: RetryPolicy): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled(provider, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
