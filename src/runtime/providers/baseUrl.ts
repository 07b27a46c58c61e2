/**
 * A provider's base URL turned into what the transport needs, with the URL API (never string
 * concatenation): the request URL with the API path appended to the base path and the base's query
 * string kept after it; the credentials of the base URL's userinfo moved into a Basic Authorization
 * header (fetch refuses URLs that carry them); the URL as it may be recorded; the server address and
 * port for the GenAI conventions' server.address / server.port.
 */
import { ConfigError } from '../run/index.js';
import { decoded, recordedUrl, urlSecrets } from './redact.js';

export interface ServerEndpoint {
  address: string;
  port: number;
}

export interface ResolvedBaseUrl {
  /** What fetch is given: no userinfo, the API path appended, the query kept. */
  requestUrl: string;
  /** The request URL as telemetry and error messages may show it (see redact.ts). */
  recordedUrl: string;
  server: ServerEndpoint;
  /** `Basic …` when the base URL carried userinfo. */
  basicAuthorization?: string;
  /** Userinfo and query values, for the redactor. */
  secrets: string[];
}

const DEFAULT_PORTS: Record<string, number> = { 'https:': 443, 'http:': 80 };

export function resolveBaseUrl(options: { provider: string; baseURL: string; path: string }): ResolvedBaseUrl {
  const base = parse(options);
  const secrets = urlSecrets(base);
  const basicAuthorization =
    base.username === '' && base.password === ''
      ? undefined
      : `Basic ${Buffer.from(`${decoded(base.username)}:${decoded(base.password)}`).toString('base64')}`;
  const request = new URL(base.href);
  request.username = '';
  request.password = '';
  request.hash = '';
  request.pathname = `${request.pathname.replace(/\/+$/, '')}${options.path}`;
  return {
    requestUrl: request.href,
    recordedUrl: recordedUrl(request),
    server: serverOf(request),
    ...(basicAuthorization === undefined ? {} : { basicAuthorization }),
    secrets: basicAuthorization === undefined ? secrets : [...secrets, basicAuthorization],
  };
}

/** server.address without IPv6 brackets; server.port, the scheme's default when the URL gives none. */
export function serverOf(url: URL): ServerEndpoint {
  const address = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { address, port: url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? 0) : Number(url.port) };
}

function parse({ provider, baseURL }: { provider: string; baseURL: string }): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  if (url === undefined || DEFAULT_PORTS[url.protocol] === undefined) {
    // The value itself may hold a key, so the message only says what is wrong with it.
    throw new ConfigError(`${provider}: baseURL must be an absolute http:// or https:// URL`, { field: 'baseURL' });
  }
  return url;
}
