/**
 * Every way a real model call fails, for every wire format (targets.ts), against a real HTTP server: HTTP errors
 * (retried or not), Retry-After, giving up after maxRetries, malformed answers, deadlines, caller
 * cancellation (the request really dropped on the wire, never retried) and refused connections —
 * each one a typed ProviderError.
 */
import { describe, expect, it } from 'vitest';
import { type FetchLike, type LLMRequest, type TransportOptions } from '../../../src/runtime/providers/index.js';
import { captureContent } from './capture.js';
import { failureOf, wireServerPerTest } from './perTest.js';
import { targets } from './targets.js';
import { closedPort, sendJson } from './wireServer.js';

const PING: LLMRequest = { model: 'test-model', messages: [{ role: 'user', content: 'ping' }] };
/** Retries without real waiting, so the suite stays fast. */
const FAST: TransportOptions = { retryBaseMs: 1 };

const serve = wireServerPerTest();

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Fails the test fast instead of hanging when `promise` never settles. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} did not happen within ${ms} ms`)))]);
}

describe.each(targets)('$label failures', (target) => {
  it('400: not retried, typed with status and the error type; the body itself stays out', async () => {
    const body = target.errorBody('invalid_request_error', "Invalid value for 'temperature': must be <= 2.");
    const server = await serve((_req, res) => sendJson(res, 400, body));
    const name = target.make('http://x', {}).name;
    const error = await failureOf(target.make(server.url, FAST).complete(PING));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.provider).toBe(name);
    expect(error.message).toBe(`${name}: HTTP 400${target.errorLabel('invalid_request_error')}`);
    expect(error.raw).toBeUndefined();
    expect(error.errorType).toBe('400');
    expect(server.requests).toHaveLength(1);
  });

  it('400 under content capture: the API message and the raw body are kept', async () => {
    captureContent();
    const body = target.errorBody('invalid_request_error', "Invalid value for 'temperature': must be <= 2.");
    const server = await serve((_req, res) => sendJson(res, 400, body));
    const name = target.make('http://x', {}).name;
    const error = await failureOf(target.make(server.url, FAST).complete(PING));
    expect(error.message).toBe(`${name}: HTTP 400${target.errorLabel('invalid_request_error')}: Invalid value for 'temperature': must be <= 2.`);
    expect(JSON.parse(error.raw ?? '')).toEqual(body);
  });

  it.each([
    [401, false],
    [404, false],
    [408, true],
    [409, true],
    [429, true],
    [503, true],
    [529, true],
  ])('HTTP %i is retryable: %s', async (status, retryable) => {
    const server = await serve((_req, res) => sendJson(res, status, target.errorBody('some_error', 'nope', status)));
    const error = await failureOf(target.make(server.url, { maxRetries: 0 }).complete(PING));
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
  });

  /** A call answered 429 with each of `headers` in turn, then 200: the gaps (ms) before each retry. */
  async function gapsBeforeRetries(headers: Record<string, string>[]): Promise<number[]> {
    const arrivals: number[] = [];
    const server = await serve((_req, res, index) => {
      arrivals.push(performance.now());
      if (index < headers.length) sendJson(res, 429, target.errorBody('rate_limit_error', 'Rate limit reached', 429), headers[index]);
      else sendJson(res, 200, target.ok);
    });
    expect((await target.make(server.url, FAST).complete(PING)).content).toBe('pong');
    expect(server.requests).toHaveLength(headers.length + 1);
    return arrivals.slice(1).map((at, i) => at - arrivals[i]!);
  }

  // retryBaseMs is 1 ms (FAST): only a wait the server asked for explains a gap of 140 ms or more.
  it('429 then 200: retried once after the Retry-After the server asked for', async () => {
    expect((await gapsBeforeRetries([{ 'retry-after': '0.15' }])).every((gap) => gap >= 140)).toBe(true);
  });

  it("429 then 200: retry-after-ms (OpenAI's precise header) wins over Retry-After", async () => {
    expect((await gapsBeforeRetries([{ 'retry-after-ms': '150', 'retry-after': '0' }])).every((gap) => gap >= 140)).toBe(true);
  });

  it('429 then 200: a retry-after-ms that is no plain number (-5, hex) is none, and Retry-After is honoured', async () => {
    const gaps = await gapsBeforeRetries([
      { 'retry-after-ms': '-5', 'retry-after': '0.15' },
      { 'retry-after-ms': '0x10', 'retry-after': '0.15' },
    ]);
    expect(gaps.every((gap) => gap >= 140)).toBe(true);
  });

  it('500 three times: gives up after maxRetries + 1 attempts with the last error', async () => {
    const server = await serve((_req, res) => sendJson(res, 500, target.errorBody('api_error', 'Internal server error', 500)));
    const error = await failureOf(target.make(server.url, { ...FAST, maxRetries: 2 }).complete(PING));
    expect(server.requests).toHaveLength(3);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(`${target.make('http://x', {}).name}: HTTP 500${target.errorLabel('api_error', 500)}`);
  });

  it('the default maxRetries is 2', async () => {
    const server = await serve((_req, res) => sendJson(res, 503, 'upstream unavailable'));
    await failureOf(target.make(server.url, FAST).complete(PING));
    expect(server.requests).toHaveLength(3);
  });

  it('a non-JSON error page: status kept; under content capture the raw body, bounded', async () => {
    captureContent();
    const page = `<html><body>${'502 Bad Gateway '.repeat(1000)}</body></html>`;
    const server = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(page);
    });
    const error = await failureOf(target.make(server.url, { maxRetries: 0 }).complete(PING));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/HTTP 502$/);
    expect(error.raw).toBe(page.slice(0, 4096));
  });

  it('a 200 whose body is not JSON: malformed_response, not retried, the text kept only under content capture', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": "x", "choices": [');
    });
    const name = target.make('http://x', {}).name;
    const error = await failureOf(target.make(server.url, FAST).complete(PING));
    expect(error.kind).toBe('malformed_response');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(`${name}: malformed response: HTTP 200 answer is not JSON`);
    expect(error.raw).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    captureContent();
    const captured = await failureOf(target.make(server.url, FAST).complete(PING));
    expect(captured.raw).toBe('{"id": "x", "choices": [');
  });

  it('a server that never answers: timeout, retryable', async () => {
    const server = await serve(() => {});
    const started = performance.now();
    const error = await failureOf(target.make(server.url, { timeoutMs: 500, maxRetries: 0 }).complete(PING));
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
    await within(server.requests[0].droppedByClient, 2000, 'the timed-out request being dropped');
  });

  it('a timeout is retried like any retryable failure', async () => {
    const server = await serve((_req, res, index) => {
      if (index > 0) sendJson(res, 200, target.ok);
    });
    const response = await target.make(server.url, { ...FAST, timeoutMs: 500 }).complete(PING);
    expect(response.content).toBe('pong');
    expect(server.requests).toHaveLength(2);
  });

  it('caller abort mid-request: aborted, the connection really dropped, no further attempt', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await serve(() => arrived());
    const controller = new AbortController();
    const reason = new Error('user pressed stop');

    const pending = failureOf(target.make(server.url, { ...FAST, maxRetries: 2 }).complete(PING, { signal: controller.signal }));
    await within(requestArrived, 2000, 'the request reaching the server');
    controller.abort(reason);
    const error = await pending;

    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
    expect(error.cause).toBe(reason);
    await within(server.requests[0].droppedByClient, 2000, 'the aborted request being dropped');
    await sleep(100);
    expect(server.requests).toHaveLength(1);
  });

  it('caller abort during the backoff wait: aborted at once, no further attempt', async () => {
    const server = await serve((_req, res) => sendJson(res, 500, target.errorBody('api_error', 'Internal server error', 500)));
    const controller = new AbortController();
    const provider = target.make(server.url, { retryBaseMs: 10_000 });
    const started = performance.now();
    const pending = failureOf(provider.complete(PING, { signal: controller.signal }));
    while (server.requests.length === 0) await sleep(5);
    await sleep(50);
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it('an already-aborted signal: nothing is sent', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, target.ok));
    const error = await failureOf(target.make(server.url, FAST).complete(PING, { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('connection refused: network, retryable, retried up to maxRetries', async () => {
    const port = await closedPort();
    let attempts = 0;
    const counting: FetchLike = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const error = await failureOf(
      target.make(`http://127.0.0.1:${port}`, { ...FAST, maxRetries: 1, fetch: counting }).complete(PING),
    );
    expect(error.kind).toBe('network');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('ECONNREFUSED');
    expect(attempts).toBe(2);
  });
});
