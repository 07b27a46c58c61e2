/**
 * A model server that redirects. fetch follows a 307 to any origin and re-sends the POST there with
 * every header but Authorization: Anthropic's x-api-key, each custom header and the whole prompt. A
 * provider refuses a redirect to another origin (two 127.0.0.1 servers on two ports are two origins):
 * nothing reaches the other server, and the call fails with the redirect's status and where it
 * pointed, recorded the url.full way. A redirect within the configured origin keeps the method and body
 * (307, 308) and is followed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { anthropic, openaiCompatible, ProviderError } from '../../src/index.js';
import { sendJson, startWireServer, type WireServer } from '../runtime/providers/wireServer.js';

const KEY = 'sk-ant-live-5e1d9b7c';
const servers: WireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(answer: Parameters<typeof startWireServer>[0]): Promise<WireServer> {
  const started = await startWireServer(answer);
  servers.push(started);
  return started;
}

const ANTHROPIC_ANSWER = { id: 'msg_1', model: 'claude-x', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } };

const request = { model: 'claude-x', messages: [{ role: 'user' as const, content: 'my secret prompt' }] };

describe('a redirect to another origin', () => {
  it('is refused: neither the credentials nor the prompt reach the other server, and the error names where it pointed', async () => {
    const other = await server((_, res) => sendJson(res, 200, ANTHROPIC_ANSWER));
    const configured = await server((_, res) => {
      res.writeHead(307, { location: `${other.url}/v1/messages?token=abc123xyz` });
      res.end();
    });
    const provider = anthropic({ apiKey: KEY, baseURL: configured.url, maxRetries: 0 });
    const error = await provider.complete(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(other.requests).toEqual([]);
    expect(configured.requests.map((r) => [r.path, r.headers['x-api-key']])).toEqual([['/v1/messages', KEY]]);
    expect(error).toBeInstanceOf(ProviderError);
    const { kind, status, retryable, message } = error as ProviderError;
    expect({ kind, status, retryable, message }).toEqual({
      kind: 'http',
      status: 307,
      retryable: false,
      message: `anthropic: HTTP 307 redirect to another origin (${other.url}/v1/messages?token=REDACTED) not followed: the request's credentials and prompt are sent only to the configured server`,
    });
  });

  it('is refused for a streamed call too', async () => {
    const other = await server((_, res) => sendJson(res, 200, ANTHROPIC_ANSWER));
    const configured = await server((_, res) => {
      res.writeHead(308, { location: `${other.url}/v1/chat/completions` });
      res.end();
    });
    const provider = openaiCompatible({ apiKey: KEY, baseURL: `${configured.url}/v1`, maxRetries: 0, headers: { 'x-team-secret': 'team-9f8e7d' } });
    const parts: unknown[] = [];
    const error = await (async () => {
      for await (const part of provider.stream!({ model: 'gpt-x', messages: request.messages })) parts.push(part);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(other.requests).toEqual([]);
    expect(parts).toEqual([]);
    expect((error as ProviderError).message).toBe(
      `openai: HTTP 308 redirect to another origin (${other.url}/v1/chat/completions) not followed: the request's credentials and prompt are sent only to the configured server`,
    );
  });
});

describe('a redirect within the configured origin', () => {
  it('is followed with the same method, headers and body', async () => {
    const configured = await server((seen, res) => {
      if (seen.path === '/old/v1/messages') {
        res.writeHead(307, { location: '/new/v1/messages' });
        res.end();
      } else sendJson(res, 200, ANTHROPIC_ANSWER);
    });
    const provider = anthropic({ apiKey: KEY, baseURL: `${configured.url}/old`, maxRetries: 0 });
    const reply = await provider.complete(request);
    expect(reply.content).toBe('hi');
    expect(configured.requests.map((r) => [r.method, r.path, r.headers['x-api-key'], (r.json as { messages: unknown }).messages])).toEqual([
      ['POST', '/old/v1/messages', KEY, [{ role: 'user', content: 'my secret prompt' }]],
      ['POST', '/new/v1/messages', KEY, [{ role: 'user', content: 'my secret prompt' }]],
    ]);
  });
});
