/**
 * What an HTTP provider sets up once, at creation: the request URL and headers, the server endpoint
 * it talks to, and the boundary that knows every secret among them. Header names are compared
 * without case, so a caller's `Authorization` replaces the default `authorization` instead of
 * joining it.
 */
import { ConfigError } from '../run/index.js';
import { resolveBaseUrl, type ServerEndpoint } from './baseUrl.js';
import { ProviderBoundary } from './boundary.js';

export interface ConnectionOptions {
  provider: string;
  baseURL: string;
  /** The API path appended to the base URL's path, e.g. '/chat/completions'. */
  path: string;
  /** Fixed protocol headers (content type, API version): not secret. */
  protocolHeaders: Record<string, string>;
  /** Credentials and caller-supplied headers: every value is a secret. */
  headers: Record<string, string>;
  apiKey?: string;
  /** See TransportOptions.captureContent. */
  captureContent?: boolean;
}

export interface Connection {
  boundary: ProviderBoundary;
  url: string;
  recordedUrl: string;
  headers: Record<string, string>;
  server: ServerEndpoint;
}

/** A provider's credential header (when it has an API key) under the caller's own headers, which win. */
export function credentialHeaders(header: string, value: string | undefined, own: Record<string, string> = {}): Record<string, string> {
  return value === undefined ? { ...own } : { [header]: value, ...own };
}

/** What a JSON-over-HTTP provider's options say about where it connects and with which key. */
export interface JsonProviderOptions {
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  captureContent?: boolean;
}

/** A JSON provider's own endpoint: its default base URL, its API path, and the header its key travels in. */
export interface JsonEndpoint {
  baseURL: string;
  path: string;
  credentialHeader: string;
  /** The key is sent as `Bearer <key>` (OpenAI's APIs) rather than as itself. */
  bearer?: boolean;
}

/** A JSON provider's connection: its endpoint, with the caller's base URL, headers and key over it. */
export function connectJson(provider: string, options: JsonProviderOptions, endpoint: JsonEndpoint): Connection {
  const credential = options.apiKey === undefined || endpoint.bearer !== true ? options.apiKey : `Bearer ${options.apiKey}`;
  return connect({
    provider,
    baseURL: options.baseURL ?? endpoint.baseURL,
    path: endpoint.path,
    protocolHeaders: { 'content-type': 'application/json' },
    headers: credentialHeaders(endpoint.credentialHeader, credential, options.headers),
    apiKey: options.apiKey,
    captureContent: options.captureContent,
  });
}

export function connect(options: ConnectionOptions): Connection {
  const base = resolveBaseUrl(options);
  const secretHeaders = lowerCased(options.headers);
  if (base.basicAuthorization !== undefined) {
    if (secretHeaders.authorization !== undefined) {
      throw new ConfigError(`${options.provider}: the baseURL carries credentials and an authorization header is also set; give one of them`);
    }
    secretHeaders.authorization = base.basicAuthorization;
  }
  const secrets = [...Object.values(secretHeaders), ...base.secrets, ...(options.apiKey === undefined ? [] : [options.apiKey])];
  return {
    boundary: new ProviderBoundary({ provider: options.provider, secrets, captureContent: options.captureContent }),
    url: base.requestUrl,
    recordedUrl: base.recordedUrl,
    headers: { ...lowerCased(options.protocolHeaders), ...secretHeaders },
    server: base.server,
  };
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
