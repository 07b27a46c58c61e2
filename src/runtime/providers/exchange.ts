/**
 * One attempt of an HTTP provider's request, from the POST to the last byte of the answer read: the
 * real fetch with its own AbortController, aborted by whichever comes first — the caller's
 * AbortSignal or the deadline — so cancelling really drops the request on the wire; the body read
 * only when asked for, counted against the size cap; a redirect to another origin refused (send());
 * and every way it can fail turned into a typed
 * ProviderError by the provider's boundary (never a bare fetch, abort or JSON error, and no secret
 * in it). `close()` releases everything (timer, listener, connection) in whatever state it is.
 */
import type { ProviderBoundary } from './boundary.js';
import { isProviderError, type ProviderError } from './errors.js';
import { isRecord } from './guards.js';
import { summarizeErrorBody } from './errorBody.js';
import { recordedUrl as urlAsRecorded } from './redact.js';
import { cancelled, hintDelay } from './retry.js';
import type { TransportSettings } from './transport.js';

export interface Post {
  boundary: ProviderBoundary;
  /** The request URL (no userinfo); messages only ever show the boundary's recorded form. */
  url: string;
  recordedUrl: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

/**
 * What the deadline bounds: the whole attempt (a JSON answer), or the wait for the headers and then
 * each wait for more bytes (an event stream, which may last as long as it keeps arriving).
 */
export type Deadline = 'whole' | 'each_read';

export class Exchange {
  private readonly controller = new AbortController();
  private stoppedBy?: 'caller' | 'deadline';
  private timer?: ReturnType<typeof setTimeout>;
  private reader?: ReadableStreamDefaultReader<Uint8Array>;
  private answered = false;
  private received = 0;
  private readonly onCallerAbort = () => this.stop('caller');

  constructor(
    private readonly post: Post,
    private readonly settings: TransportSettings,
    private readonly deadline: Deadline,
  ) {}

  /** Sends the request; resolves once a 2xx answer's headers arrived, else rejects typed. */
  async open(): Promise<Response> {
    const { boundary, signal } = this.post;
    if (signal?.aborted) throw cancelled(boundary.provider, signal.reason);
    signal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.arm();
    const response = await this.send();
    this.answered = true;
    this.pauseDeadline();
    this.reader = response.body?.getReader();
    if (!response.ok) throw httpError(boundary, response, await this.text('truncate'));
    // A body the server announces as too large is refused before a byte of it is read.
    if (Number(response.headers.get('content-length')) > this.settings.maxResponseBytes) throw this.tooLarge();
    return response;
  }

  /**
   * POSTs, following redirects by hand: fetch would follow one to any origin and re-send the request
   * there with every header but Authorization (an x-api-key, the caller's headers) and the prompt.
   * A redirect to another origin is refused; one within the configured origin is followed when it
   * keeps the POST (307, 308), up to MAX_REDIRECTS; any other answer is returned as it came.
   */
  private async send(): Promise<Response> {
    const { boundary } = this.post;
    const body = JSON.stringify(this.post.body);
    let url = this.post.url;
    for (let hops = 0; ; hops++) {
      let response: Response;
      try {
        response = await (this.settings.fetch ?? globalThis.fetch)(url, {
          method: 'POST',
          headers: this.post.headers,
          body,
          signal: this.controller.signal,
          redirect: 'manual',
        });
      } catch (error) {
        throw this.failure(error);
      }
      const target = redirectTarget(response, url);
      if (target === undefined) return response;
      await response.body?.cancel().catch(() => {});
      if (target.origin !== new URL(url).origin) {
        throw boundary.error({
          kind: 'http',
          status: response.status,
          retryable: false,
          message: `${boundary.provider}: HTTP ${response.status} redirect to another origin (${urlAsRecorded(target)}) not followed: the request's credentials and prompt are sent only to the configured server`,
        });
      }
      if (!KEEPS_POST.has(response.status) || hops === MAX_REDIRECTS) return response;
      url = target.href;
    }
  }

  /** The next bytes of the body, or undefined at its end; past the size cap, `response_too_large`. */
  async read(): Promise<Uint8Array | undefined> {
    if (this.reader === undefined) return undefined;
    if (this.deadline === 'each_read') this.arm();
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await this.reader.read();
    } catch (error) {
      throw this.failure(error);
    }
    this.pauseDeadline();
    if (result.done) return undefined;
    this.received += result.value.byteLength;
    if (this.received > this.settings.maxResponseBytes) throw this.tooLarge();
    return result.value;
  }

  /**
   * The whole body as text (UTF-8, decoded across reads). Past the size cap: `response_too_large`,
   * or, with 'truncate' (an error answer, which only needs its beginning), the text up to the cap.
   */
  async text(overflow: 'fail' | 'truncate' = 'fail'): Promise<string> {
    const decoder = new TextDecoder();
    let text = '';
    try {
      for (let bytes = await this.read(); bytes !== undefined; bytes = await this.read()) text += decoder.decode(bytes, { stream: true });
    } catch (error) {
      if (overflow === 'fail' || !isProviderError(error) || error.kind !== 'response_too_large') throw error;
    }
    return text + decoder.decode();
  }

  /** Releases the attempt: the deadline, the caller's listener, and the connection if still open. */
  close(): void {
    clearTimeout(this.timer);
    this.post.signal?.removeEventListener('abort', this.onCallerAbort);
    this.controller.abort();
    this.reader?.cancel().catch(() => {});
  }

  private stop(by: 'caller' | 'deadline'): void {
    this.stoppedBy ??= by;
    this.controller.abort();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop('deadline'), this.settings.timeoutMs);
  }

  /** Between reads of a stream the wait is the consumer's, not the server's: no deadline runs. */
  private pauseDeadline(): void {
    if (this.deadline === 'each_read') clearTimeout(this.timer);
  }

  /** A failed fetch or body read, typed by who stopped it: the caller, the deadline, or the network. */
  private failure(error: unknown): ProviderError {
    const { boundary, signal, recordedUrl } = this.post;
    const { provider } = boundary;
    if (this.stoppedBy === 'caller') return cancelled(provider, signal?.reason);
    const { timeoutMs } = this.settings;
    if (this.stoppedBy === 'deadline') {
      const message =
        this.deadline === 'whole'
          ? `no complete answer within ${timeoutMs} ms`
          : this.answered
            ? `the stream stalled: no bytes for ${timeoutMs} ms after ${this.received} bytes`
            : `no answer within ${timeoutMs} ms`;
      return boundary.error({ kind: 'timeout', message: `${provider}: ${message}`, retryable: true, cause: error });
    }
    const what = this.answered ? `reading the answer from ${recordedUrl} failed after ${this.received} bytes` : `request to ${recordedUrl} failed`;
    return boundary.error({ kind: 'network', message: `${provider}: ${what} (${networkDetail(error)})`, retryable: true, cause: error });
  }

  private tooLarge(): ProviderError {
    const { boundary } = this.post;
    return boundary.error({
      kind: 'response_too_large',
      message: `${boundary.provider}: the answer is larger than maxResponseBytes (${this.settings.maxResponseBytes} bytes); stopped reading it`,
    });
  }
}

/** Redirects that keep the method and body; the others would turn the POST into a GET. */
const KEEPS_POST = new Set([307, 308]);
const MAX_REDIRECTS = 5;

/** Where a 3xx answer with a Location points, resolved against the URL asked; undefined for any other answer. */
function redirectTarget(response: Response, from: string): URL | undefined {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || location === null) return undefined;
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
}

/** The statuses where the same request may succeed later: timeouts, conflicts, rate limits, 5xx. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * An HTTP failure: status and the body's error type and code; the provider's own message only under
 * content capture (the boundary redacts secrets from it either way). The wait the server asks for
 * before a retry: retry-after-ms (OpenAI), Retry-After, or the body's RetryInfo (Gemini).
 */
function httpError(boundary: ProviderBoundary, response: Response, text: string): ProviderError {
  const { status } = response;
  const summary = summarizeErrorBody(text);
  const error = boundary.error({
    kind: 'http',
    status,
    retryable: retryableStatus(status),
    // An app whose key variable is unset sends no credential at all: say so, or a 401 gives no lead.
    message: `${boundary.provider}: HTTP ${status}${boundary.describeErrorBody(summary)}${status === 401 && !boundary.credentialed ? '; the request carried no credentials (no apiKey was given)' : ''}`,
    raw: text,
  });
  const wait = retryAfterMsHeader(response.headers.get('retry-after-ms')) ?? retryAfterMs(response.headers.get('retry-after')) ?? summary.retryDelayMs;
  return wait === undefined ? error : hintDelay(error, wait);
}

/** OpenAI's retry-after-ms: the wait in milliseconds, more precise than its Retry-After; anything but a plain number is none. */
function retryAfterMsHeader(header: string | null): number | undefined {
  return header !== null && DELAY.test(header) ? Number(header) : undefined;
}

/** Retry-After is either delay-seconds or an HTTP date. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (DELAY.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** A delay as a plain decimal number (no sign, no hex): what the headers' grammars allow. */
const DELAY = /^\s*\d+(\.\d+)?\s*$/;

/** fetch hides the socket error (ECONNREFUSED, ECONNRESET, ...) in `cause`. */
function networkDetail(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (isRecord(cause) && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
