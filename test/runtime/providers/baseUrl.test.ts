/**
 * Base URLs through the URL API: the API path lands before the query string, userinfo leaves the
 * URL (as Basic authorization), the recorded form hides every credential the way the OTel HTTP
 * conventions record url.full, and the server endpoint gets the scheme's default port.
 */
import { describe, expect, it } from 'vitest';
import { resolveBaseUrl } from '../../../src/runtime/providers/baseUrl.js';
import { recordedUrl, redactor } from '../../../src/runtime/providers/redact.js';
import { ConfigError, anthropic, openaiCompatible } from '../../../src/runtime/index.js';

describe('resolveBaseUrl', () => {
  it('appends the API path to the base path and keeps the query after it', () => {
    const base = resolveBaseUrl({ provider: 'openai', baseURL: 'http://user:p%40ss@gw.local:8080/v1/?api_key=sk-abc&team=x#frag', path: '/chat/completions' });
    expect(base).toEqual({
      requestUrl: 'http://gw.local:8080/v1/chat/completions?api_key=sk-abc&team=x',
      recordedUrl: 'http://gw.local:8080/v1/chat/completions?api_key=REDACTED&team=REDACTED',
      server: { address: 'gw.local', port: 8080 },
      basicAuthorization: `Basic ${Buffer.from('user:p@ss').toString('base64')}`,
      secrets: ['user', 'p%40ss', 'sk-abc', 'x', 'user', 'p@ss', 'sk-abc', 'x', `Basic ${Buffer.from('user:p@ss').toString('base64')}`],
    });
  });

  it('a plain base URL: nothing to hide, default ports by scheme', () => {
    expect(resolveBaseUrl({ provider: 'openai', baseURL: 'https://api.openai.com/v1', path: '/chat/completions' })).toEqual({
      requestUrl: 'https://api.openai.com/v1/chat/completions',
      recordedUrl: 'https://api.openai.com/v1/chat/completions',
      server: { address: 'api.openai.com', port: 443 },
      secrets: [],
    });
    expect(resolveBaseUrl({ provider: 'x', baseURL: 'http://localhost', path: '/v1/messages' }).server).toEqual({ address: 'localhost', port: 80 });
    expect(resolveBaseUrl({ provider: 'x', baseURL: 'http://[::1]:11434/v1', path: '/p' }).server).toEqual({ address: '::1', port: 11434 });
  });

  it('refuses a base URL that is not absolute http(s), without echoing it', () => {
    for (const baseURL of ['127.0.0.1:8080/v1?key=sk-hidden', 'ftp://host/v1?key=sk-hidden', 'not a url sk-hidden']) {
      let thrown: unknown;
      try {
        resolveBaseUrl({ provider: 'openai', baseURL, path: '/chat/completions' });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toBe('openai: baseURL must be an absolute http:// or https:// URL');
      expect((thrown as ConfigError).field).toBe('baseURL');
    }
  });
});

describe('recordedUrl and redactor', () => {
  it('drops userinfo and replaces every query value, keeping keys', () => {
    expect(recordedUrl(new URL('https://u:p@h.example/a?k=1&k=2&sig=zz'))).toBe('https://h.example/a?k=REDACTED&k=REDACTED&sig=REDACTED');
  });

  it('replaces each secret in every form it travels in, longest first', () => {
    const { redact } = redactor(['sk-live-1234', 'sk-live-1234-extra', 'p@ss word', 'ab']);
    expect(redact('a sk-live-1234-extra and sk-live-1234')).toBe('a REDACTED and REDACTED');
    expect(redact('url p%40ss%20word json "p@ss word"')).toBe('url REDACTED json "REDACTED"');
    // Too short to search for without shredding every message.
    expect(redact('about ab')).toBe('about ab');
  });
});

describe('providers expose their server endpoint', () => {
  it('openaiCompatible and anthropic, credentials never part of it', () => {
    expect(openaiCompatible({ baseURL: 'https://key:secret@proxy.example:8443/v1?api_key=sk-1' }).server).toEqual({ address: 'proxy.example', port: 8443 });
    expect(anthropic({}).server).toEqual({ address: 'api.anthropic.com', port: 443 });
    expect(anthropic({ baseURL: 'http://127.0.0.1:9999' }).server).toEqual({ address: '127.0.0.1', port: 9999 });
  });

  it('userinfo together with an authorization header is refused: one of them would be dropped', () => {
    expect(() => openaiCompatible({ baseURL: 'https://u:p@proxy.example/v1', apiKey: 'sk-1' })).toThrow(
      new ConfigError('openai: the baseURL carries credentials and an authorization header is also set; give one of them'),
    );
  });
});
