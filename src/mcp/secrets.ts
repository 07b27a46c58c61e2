/**
 * The one redaction boundary of an MCP connection over Streamable HTTP, the providers' own
 * (runtime/providers/redact.ts): the URL's username, password and query values and every header value
 * are its secrets, replaced by REDACTED in every message the connection makes (McpConnectError,
 * McpCallError, the client spans' status), in every form they travel in (a 401 body echoing the token).
 * The URL's userinfo is sent as `Authorization: Basic …` (fetch refuses a URL that carries it), never
 * with an authorization header beside it.
 */
import { ConfigError, decoded, redactor, urlSecrets, type Redactor } from '../runtime/index.js';

export type { Redactor };

export interface HttpEndpoint {
  /** The URL without userinfo. */
  url: URL;
  headers: Record<string, string>;
  redactor: Redactor;
}

export function httpEndpoint(server: { url: string | URL; headers?: Record<string, string> }): HttpEndpoint {
  const url = new URL(server.url);
  const headers = { ...server.headers };
  const secrets = [...urlSecrets(url), ...Object.values(headers)];
  if (url.username !== '' || url.password !== '') {
    if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
      throw new ConfigError('connectMcp: the url carries credentials and an authorization header is also set; give one of them', { field: 'url' });
    }
    const basic = `Basic ${Buffer.from(`${decoded(url.username)}:${decoded(url.password)}`).toString('base64')}`;
    headers.authorization = basic;
    secrets.push(basic);
    url.username = '';
    url.password = '';
  }
  return { url, headers, redactor: redactor(secrets) };
}
