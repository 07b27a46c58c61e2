/**
 * The provider boundary: the one place an HTTP provider's failures become ProviderErrors, so that
 * no secret crosses it. Every message is redacted of the provider's secrets (API key, every header
 * value it sends, base-URL userinfo and query values) before the error exists, because the stack
 * a span's exception event records repeats the message. The unusable body (`raw`) is kept only under
 * content capture, and redacted even then.
 *
 * Content capture is the provider's captureContent option, or else read once when the provider is
 * made, exactly as the tracing bridge reads it (the same function over
 * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT); never again during a run.
 */
import { captureFromEnv, exportedView } from '../../events/index.js';
import { labelsOf, type ErrorBodySummary } from './errorBody.js';
import { ProviderError, type ProviderErrorInit } from './errors.js';
import { redactor, type Redactor } from './redact.js';

/** How much of a provider's error message goes into ProviderError.message (under content capture). */
const MAX_DETAIL_CHARS = 500;

export class ProviderBoundary {
  readonly provider: string;
  /** Whether requests carry anything that may be a credential (an API key, a caller's header, userinfo). */
  readonly credentialed: boolean;
  private readonly redactor: Redactor;
  private readonly capture: boolean;

  constructor(init: { provider: string; secrets: readonly string[]; captureContent?: boolean }) {
    this.provider = init.provider;
    this.credentialed = init.secrets.length > 0;
    this.redactor = redactor(init.secrets);
    this.capture = init.captureContent ?? captureFromEnv();
  }

  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** A ProviderError from this provider, message redacted, raw kept only under content capture. */
  error(init: Omit<ProviderErrorInit, 'provider'>): ProviderError {
    const { raw, ...rest } = init;
    const kept = exportedView({ type: 'provider.error_body', payload: { raw } }, this.capture).payload.raw;
    return new ProviderError({
      ...rest,
      provider: this.provider,
      message: this.redact(init.message),
      ...(kept !== undefined ? { raw: this.redact(kept) } : {}),
    });
  }

  /**
   * What an error body (an HTTP error answer's, or a stream's error event's), as summarizeErrorBody
   * read it, may say in a message: its error type and code, plus the provider's own message (redacted, bounded) only under content
   * capture. `' (type overloaded_error): Overloaded'`, or '' when the body named nothing usable.
   */
  describeErrorBody(summary: ErrorBodySummary): string {
    const detail = exportedView({ type: 'provider.error_body', payload: { detail: summary.message } }, this.capture).payload.detail;
    return detail === undefined ? labelsOf(summary) : `${labelsOf(summary)}: ${this.redact(detail).slice(0, MAX_DETAIL_CHARS)}`;
  }

  /**
   * A 2xx answer the provider cannot use; never retried (the same request would get the same answer).
   * `raw` is what could not be used, undefined when nothing was (a stream that simply ended).
   */
  malformed(why: string, raw: unknown, cause?: unknown): ProviderError {
    return this.error({
      kind: 'malformed_response',
      message: `${this.provider}: malformed response: ${why}`,
      ...(raw === undefined ? {} : { raw: typeof raw === 'string' ? raw : JSON.stringify(raw) }),
      cause,
    });
  }
}
