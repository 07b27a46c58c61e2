/**
 * What every wire-level provider test file needs around its tests: a wire server started per test
 * and closed after it (content capture switched back off too), the one request a call sent, and the
 * typed failure a call ends in.
 */
import { afterEach, expect } from 'vitest';
import { isProviderError, type ProviderError } from '../../../src/runtime/providers/index.js';
import { endCapture } from './capture.js';
import { startWireServer, type Answer, type SeenRequest, type WireServer } from './wireServer.js';

/** Registers the per-test clean-up and returns the function that starts this test's server. */
export function wireServerPerTest(): (answer: Answer) => Promise<WireServer> {
  const open: WireServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
    endCapture();
  });
  return async (answer) => {
    const server = await startWireServer(answer);
    open.push(server);
    return server;
  };
}

/**
 * The one request `server` got, checked to be a POST to `path` carrying exactly the given values of
 * `headers` (a header given as undefined must not have been sent at all); the body is the test's to check.
 */
export function onlyPost(server: WireServer, path: string, headers: Record<string, string | undefined>): SeenRequest {
  expect(server.requests).toHaveLength(1);
  const sent = server.requests[0]!;
  expect(sent.method).toBe('POST');
  expect(sent.path).toBe(path);
  expect(Object.fromEntries(Object.keys(headers).map((name) => [name, sent.headers[name]]))).toEqual(headers);
  return sent;
}

/** The ProviderError `promise` rejects with; anything else (a success, another error) fails the test. */
export async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isProviderError(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}
