/**
 * An OTLP/HTTP endpoint checked before any exporter sees it, so a bad one is one clear line instead
 * of an exporter's stack: `127.0.0.1:4318` (no scheme; `localhost:4318` would even parse as a URL
 * whose scheme is "localhost:"), a gRPC or other non-HTTP scheme, or text that is no URL at all.
 */

import { TelemetryConfigError } from './errors.js';

/** An OTLP endpoint no exporter can use (a TelemetryConfigError). */
export class EndpointError extends TelemetryConfigError {
  override readonly name = 'EndpointError';
}

export interface EndpointToCheck {
  /** The endpoint as configured. */
  value: string;
  /** Where it came from, for the message: 'OTEL_EXPORTER_OTLP_ENDPOINT', 'the endpoint option', ... */
  source: string;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** The endpoint as a URL, or an EndpointError whose message is one line saying what to write instead. */
export function checkOtlpEndpoint({ value, source }: EndpointToCheck): URL {
  const text = value.trim();
  if (text === '') throw new EndpointError(`${source} is empty: set it to a URL such as http://localhost:4318`);
  if (!SCHEME.test(text)) {
    throw new EndpointError(`${source} "${text}" has no scheme: write http://${text} (or https://${text})`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new EndpointError(`${source} "${text}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EndpointError(`${source} "${text}" uses ${url.protocol}// but OTLP is exported over HTTP here: use http:// or https://`);
  }
  return url;
}
