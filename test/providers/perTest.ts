/**
 * What every wire-level provider test file needs around its tests: a wire server started per test
 * and closed after it (content capture switched back off too), and the typed failure a call ends in.
 */
import { afterEach } from 'vitest';
import { isProviderError, type ProviderError } from '../../src/runtime/providers/index.js';
import { endCapture } from './capture.js';
import { startWireServer, type Answer, type WireServer } from './wireServer.js';

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

/** The ProviderError `promise` rejects with; anything else (a success, another error) fails the test. */
export async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isProviderError(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}
