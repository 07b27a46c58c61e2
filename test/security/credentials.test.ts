/**
 * Two credential leaks, as exact examples over a real 127.0.0.1 server and the real OTel
 * SDK: a base URL with userinfo and an API key in its query string, and a 401 whose body echoes the
 * Authorization header. The request still carries every credential to the server; the error, the
 * span status and the exception event carry none, and the URL is recorded the url.full way.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, openaiCompatible, RunFailedError, type LLMProvider } from '../../src/index.js';
import { captureContent, endCapture } from '../runtime/providers/capture.js';
import { closedPort, sendJson, startWireServer, type WireServer } from '../runtime/providers/wireServer.js';
import { startSdk } from '../support/sdk.js';

const KEY = 'sk-live-7f3a9c0e1b2d';
const sdk = startSdk();
let server: WireServer | undefined;

beforeEach(() => sdk.reset());
afterEach(async () => {
  endCapture();
  await server?.close();
  server = undefined;
});
afterAll(() => sdk.shutdown());

/** A 401 the way OpenAI writes it, echoing the Authorization header it received. */
async function rejectingServer(): Promise<WireServer> {
  return startWireServer((request, res) =>
    sendJson(res, 401, {
      error: { message: `Incorrect API key provided: ${String(request.headers.authorization)}`, type: 'invalid_request_error', code: 'invalid_api_key' },
    }),
  );
}

async function failedRun(provider: LLMProvider): Promise<RunFailedError> {
  const agent = Agent.create({ provider, model: 'm-1', id: 'vault', name: 'Vault' }).build();
  const error = await agent.run('hello').then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof RunFailedError)) throw new Error(`expected a RunFailedError, got ${String(error)}`);
  return error;
}

/** The chat span's status and exception event, as exported. */
function chatFailure() {
  const chat = sdk.spans().find((span) => span.name === 'chat m-1');
  if (!chat) throw new Error(`no chat span among ${sdk.spans().map((s) => s.name).join(', ')}`);
  return { status: chat.status, exception: chat.events.find((e) => e.name === 'exception')?.attributes?.['exception.message'] };
}

describe('credentials in the base URL', () => {
  it('travel to the server (query in place, userinfo as Basic auth) and nowhere else', async () => {
    server = await rejectingServer();
    const port = new URL(server.url).port;
    const provider = openaiCompatible({ baseURL: `http://alice:hunter2-pw@127.0.0.1:${port}/v1?api_key=${KEY}`, maxRetries: 0 });
    const error = await failedRun(provider);

    expect(server.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      [`/v1/chat/completions?api_key=${KEY}`, `Basic ${Buffer.from('alice:hunter2-pw').toString('base64')}`],
    ]);
    const expected = 'openai: HTTP 401 (type invalid_request_error, code invalid_api_key)';
    expect(error.message).toBe(`run ${error.runId} failed in agent "vault" at stage "${error.stage}": ProviderError: ${expected}`);
    expect(chatFailure()).toEqual({ status: { code: SpanStatusCode.ERROR, message: `ProviderError: ${expected}` }, exception: `ProviderError: ${expected}` });
  });

  it('a refused connection names the URL without userinfo and with query values REDACTED', async () => {
    const port = await closedPort();
    const provider = openaiCompatible({ baseURL: `http://alice:hunter2-pw@127.0.0.1:${port}/v1?api_key=${KEY}&team=blue`, maxRetries: 0 });
    const error = await failedRun(provider);
    const expected = `openai: request to http://127.0.0.1:${port}/v1/chat/completions?api_key=REDACTED&team=REDACTED failed (ECONNREFUSED)`;
    expect((error.cause as Error).message).toBe(expected);
    expect(chatFailure()).toEqual({ status: { code: SpanStatusCode.ERROR, message: `ProviderError: ${expected}` }, exception: `ProviderError: ${expected}` });
  });
});

describe('an error body that echoes the Authorization header', () => {
  it('is reduced to status, type and code', async () => {
    server = await rejectingServer();
    const error = await failedRun(openaiCompatible({ baseURL: `${server.url}/v1`, apiKey: KEY, maxRetries: 0 }));
    expect((error.cause as Error).message).toBe('openai: HTTP 401 (type invalid_request_error, code invalid_api_key)');
    expect((error.cause as { raw?: string }).raw).toBeUndefined();
  });

  it('under content capture keeps the message and the body, the key redacted from both', async () => {
    captureContent();
    server = await rejectingServer();
    const error = await failedRun(openaiCompatible({ baseURL: `${server.url}/v1`, apiKey: KEY, maxRetries: 0 }));
    const expected = 'openai: HTTP 401 (type invalid_request_error, code invalid_api_key): Incorrect API key provided: REDACTED';
    expect((error.cause as Error).message).toBe(expected);
    expect(JSON.parse((error.cause as { raw: string }).raw)).toEqual({
      error: { message: 'Incorrect API key provided: REDACTED', type: 'invalid_request_error', code: 'invalid_api_key' },
    });
    expect(chatFailure()).toEqual({ status: { code: SpanStatusCode.ERROR, message: `ProviderError: ${expected}` }, exception: `ProviderError: ${expected}` });
  });
});
