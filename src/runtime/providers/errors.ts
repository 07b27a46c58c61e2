/**
 * ProviderError: every way a model call can fail (HTTP 4xx/5xx, timeout, malformed reply, a reply
 * past the size cap, an error the server reports mid-stream, cancellation) becomes this one typed
 * error, so callers branch on fields, never on messages.
 */
import { markOwnText } from '../../events/index.js';

export type ProviderErrorKind =
  | 'http'
  | 'timeout'
  | 'malformed_response'
  | 'response_too_large'
  | 'stream_error'
  | 'aborted'
  | 'network'
  | 'script';

export interface ProviderErrorInit {
  provider: string;
  kind: ProviderErrorKind;
  message: string;
  status?: number;
  retryable?: boolean;
  raw?: string;
  cause?: unknown;
}

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
  readonly provider: string;
  readonly kind: ProviderErrorKind;
  /** HTTP status, when the failure was an HTTP answer. */
  readonly status?: number;
  /** True when trying again may succeed (429, 5xx, network, timeout). */
  readonly retryable: boolean;
  /**
   * The body or text that could not be used, for diagnosis (bounded). HTTP providers keep it only
   * under content capture, with their secrets redacted (see boundary.ts).
   */
  readonly raw?: string;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.provider = init.provider;
    this.kind = init.kind;
    this.status = init.status;
    this.retryable = init.retryable ?? false;
    this.raw = init.raw === undefined ? undefined : init.raw.slice(0, 4096);
  }

  /** A low-cardinality label for metrics and span `error.type`. */
  get errorType(): string {
    return this.status !== undefined ? String(this.status) : this.kind;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
