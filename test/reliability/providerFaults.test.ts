/**
 * A bad model never crashes a run or breaks its trace. Against a real HTTP server on 127.0.0.1:
 * a 200 whose body is broken or unusable JSON fails the run with RunFailedError caused by a typed
 * ProviderError (kind malformed_response, never retried); a server that never answers ends in
 * ProviderError kind timeout (with bounded retries, every request dropped on the wire); a run-level
 * AbortSignal.timeout cancels the request and the run (RunCancelledError) — and so it does when the
 * provider ignores the signal altogether. Every time the trace is one well-formed trace whose chat
 * and run spans are ERROR with a low-cardinality error.type.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  openaiCompatible,
  ProviderError,
  RunCancelledError,
  RunFailedError,
  tracingFailures,
  type LLMProvider,
} from '../../src/index.js';
import { sendJson, startWireServer, type WireServer } from '../runtime/providers/wireServer.js';
import { failure, only, outcomeOf } from '../support/reliability/runs.js';
import { startSdk } from '../support/sdk.js';
import { traceProblems } from '../support/traceChecks.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());

let server: WireServer | undefined;
let held: ServerResponse[] = [];
let failuresBefore = 0;
beforeEach(() => {
  sdk.reset();
  failuresBefore = tracingFailures();
});
afterEach(async () => {
  for (const res of held) res.destroy();
  held = [];
  await server?.close();
  server = undefined;
});

function agentOn(provider: LLMProvider) {
  return Agent.create({ provider, model: 'gpt-test', id: 'wire', name: 'Wire' })
    .tool({ name: 'lookup', description: 'Finds things', inputSchema: { type: 'object' }, execute: () => 'found' })
    .build();
}

/**
 * The run's one trace is well-formed, the run span and the chat span failed with `type`, and the
 * failure is one exception event, on the chat span where it happened.
 */
function expectFailedTrace(rootType: string, chatType: string) {
  const spans = sdk.spans();
  expect(traceProblems(spans, { unended: sdk.unended(), traces: 1 })).toEqual([]);
  const root = only(spans, 'invoke_agent Wire');
  expect(failure(root)).toEqual([SpanStatusCode.ERROR, rootType]);
  // A cancelled run's outcome is `cancelled`, every other failure's `error`.
  expect(root.attributes['footprint.run.outcome']).toBe(rootType === 'cancelled' ? 'cancelled' : 'error');
  expect(failure(only(spans, 'chat gpt-test'))).toEqual([SpanStatusCode.ERROR, chatType]);
  const exceptions = spans.flatMap((s) => s.events.filter((e) => e.name === 'exception').map((e) => [s.name, e.attributes?.['exception.type']]));
  expect(exceptions).toEqual([['chat gpt-test', 'ProviderError']]);
  expect(tracingFailures()).toBe(failuresBefore);
}

describe('a 200 answer the provider cannot use', () => {
  const bodies: [string, string][] = [
    ['not JSON at all', 'Internal proxy page <html>'],
    ['JSON cut off mid-way', '{"choices":[{"index":0,"message":{"role":"assistant","content":"Hel'],
    ['an empty body', ''],
    ['JSON without choices', '{"object":"chat.completion","choices":[]}'],
    ['a content that is not a string', '{"choices":[{"message":{"role":"assistant","content":{"text":42}}}]}'],
  ];

  it.each(bodies)('%s: RunFailedError from a malformed_response ProviderError, never retried, trace well-formed', async (_label, body) => {
    server = await startWireServer((_request, res) => sendJson(res, 200, body));
    const agent = agentOn(openaiCompatible({ baseURL: `${server.url}/v1`, name: 'openai', maxRetries: 2, retryBaseMs: 1 }));
    const result = await outcomeOf(agent.run('hello'));

    expect(result.ok).toBe(false);
    const error = (result as { error: unknown }).error as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect([error.member, error.stage]).toEqual([{ kind: 'agent', id: 'wire' }, 'call-llm']);
    expect(error.cause).toBeInstanceOf(ProviderError);
    expect(error.cause).toMatchObject({ kind: 'malformed_response', retryable: false, provider: 'openai' });
    expect(server.requests).toHaveLength(1);
    expectFailedTrace('malformed_response', 'malformed_response');
  });
});

describe('a provider that hangs', () => {
  const neverAnswer = () => startWireServer((_request, res) => void held.push(res));

  it('past its own deadline: ProviderError kind timeout after bounded retries, each request dropped on the wire', async () => {
    server = await neverAnswer();
    const agent = agentOn(openaiCompatible({ baseURL: server.url, timeoutMs: 500, maxRetries: 1, retryBaseMs: 1 }));
    const result = await outcomeOf(agent.run('hello'));

    const error = (result as { error: unknown }).error as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error.cause).toMatchObject({ name: 'ProviderError', kind: 'timeout', retryable: true });
    expect(server.requests).toHaveLength(2);
    await Promise.all(server.requests.map((r) => r.droppedByClient));
    expectFailedTrace('timeout', 'timeout');
  });

  it('past the run deadline: AbortSignal.timeout cancels the request and the run', async () => {
    server = await neverAnswer();
    const agent = agentOn(openaiCompatible({ baseURL: server.url }));
    const result = await outcomeOf(agent.run('hello', { signal: AbortSignal.timeout(500) }));

    const error = (result as { error: unknown }).error as RunCancelledError;
    expect(error).toBeInstanceOf(RunCancelledError);
    expect(error.cause).toMatchObject({ name: 'ProviderError', kind: 'aborted' });
    expect(server.requests).toHaveLength(1);
    await server.requests[0]!.droppedByClient;
    expectFailedTrace('cancelled', 'aborted');
  });

  it('and ignores the AbortSignal: the run still ends as cancelled at its deadline', async () => {
    let calls = 0;
    const deaf: LLMProvider = {
      name: 'openai',
      complete: () => {
        calls++;
        return new Promise(() => {});
      },
    };
    const result = await outcomeOf(agentOn(deaf).run('hello', { signal: AbortSignal.timeout(100) }));

    const error = (result as { error: unknown }).error as RunCancelledError;
    expect(error).toBeInstanceOf(RunCancelledError);
    expect(error.cause).toMatchObject({ name: 'ProviderError', kind: 'aborted' });
    expect(calls).toBe(1);
    expectFailedTrace('cancelled', 'aborted');
  }, 10_000);
});
