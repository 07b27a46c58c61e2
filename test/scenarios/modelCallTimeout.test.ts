/**
 * A model call always has a bounded wait: a custom provider (the LLMProvider port anyone may
 * implement) that never settles and ignores its signal, or a stream of one that stalls mid-way, fails
 * at the agent's modelCallTimeoutMs with ProviderError 'timeout', and the chat span, its error.type,
 * the llm_end record and the run's outcome are exactly those of an HTTP provider's own timeout. A
 * provider that settles after the deadline is ignored without an unhandled rejection.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  Agent,
  ProviderError,
  RunCancelledError,
  RunFailedError,
  scripted,
  type LLMProvider,
  type LLMResponse,
  type LLMStreamPart,
  type Runner,
  type TypedEvent,
} from '../../src/index.js';
import { runInputParts } from '../support/lineageLinks.js';
import { startSdk } from '../support/sdk.js';
import { drain } from '../support/streams.js';
import { render } from '../support/traceTree.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

/** A small deadline, so a test that waits for it is quick; nothing below measures time. */
const DEADLINE_MS = 50;

/** A custom provider whose complete() never settles and never looks at its signal; it keeps the signals it was given. */
function neverAnswers(): LLMProvider & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    name: 'custom',
    signals,
    complete: (_request, options) => {
      signals.push(options!.signal!);
      return new Promise<LLMResponse>(() => undefined);
    },
  };
}

/** A custom provider whose stream gives one text part, then waits forever, ignoring its signal. */
function stallsAfterOnePart(): LLMProvider & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    name: 'custom',
    signals,
    complete: () => Promise.reject(new Error('complete() is not used by a streamed run')),
    async *stream(_request, options): AsyncGenerator<LLMStreamPart> {
      signals.push(options!.signal!);
      yield { type: 'text', delta: 'Invoice ' };
      await new Promise(() => undefined);
    },
  };
}

/** The error an HTTP provider fails with at its own deadline (providers/exchange.ts), from a scripted provider. */
function httpTimeout(): LLMProvider {
  const error = new ProviderError({ provider: 'custom', kind: 'timeout', message: 'custom: no answer within 120000 ms', retryable: true });
  return scripted({ name: 'custom', replies: [{ error }] });
}

function agentOn(provider: LLMProvider): Runner {
  return Agent.create({ provider, model: 'm1', name: 'Waiting', modelCallTimeoutMs: DEADLINE_MS }).build();
}

/** Runs `work` on `runner`, returning what it rejected with and the run's llm_end records. */
async function failed(runner: Runner, work: (runner: Runner) => Promise<unknown>) {
  const ends: TypedEvent<'footprint.call.llm_end'>['payload'][] = [];
  runner.on('footprint.call.llm_end', (event) => ends.push(event.payload));
  const error = await work(runner).then(
    () => new Error('expected the run to fail'),
    (rejected: unknown) => rejected,
  );
  return { error, ends };
}

const chatOf = (spans: ReadableSpan[]) => spans.find((span) => span.name === 'chat m1')!;
const rootOf = (spans: ReadableSpan[]) => spans.find((span) => span.name === 'invoke_agent Waiting')!;

/** What the tree, the chat span and the run span say about the failure, for comparing two runs. */
function failureView(spans: ReadableSpan[]) {
  const chat = chatOf(spans);
  const root = rootOf(spans);
  return {
    tree: render(spans, { attrs: ['error.type'] }),
    chat: { status: chat.status.code, attributes: { ...chat.attributes, 'footprint.llm.call_id': 'call', 'footprint.lineage.part.producers': ['run'] } },
    root: { status: root.status.code, outcome: root.attributes['footprint.run.outcome'], events: root.events.map((event) => event.name) },
  };
}

describe('a custom provider that never answers', () => {
  it('fails the call at modelCallTimeoutMs with ProviderError timeout, its signal aborted', async () => {
    const provider = neverAnswers();
    const { error, ends } = await failed(agentOn(provider), (runner) => runner.run('Is invoice 42 paid?'));

    expect(error).toBeInstanceOf(RunFailedError);
    const cause = (error as RunFailedError).cause as ProviderError;
    expect(cause).toBeInstanceOf(ProviderError);
    expect({ kind: cause.kind, retryable: cause.retryable, provider: cause.provider, message: cause.message, errorType: cause.errorType }).toEqual({
      kind: 'timeout',
      retryable: true,
      provider: 'custom',
      message: 'custom: no answer within 50 ms (modelCallTimeoutMs)',
      errorType: 'timeout',
    });
    expect(provider.signals).toHaveLength(1);
    expect(provider.signals[0]!.aborted).toBe(true);
    expect([(provider.signals[0]!.reason as DOMException).name, (provider.signals[0]!.reason as DOMException).message]).toEqual([
      'TimeoutError',
      'no answer within 50 ms (modelCallTimeoutMs)',
    ]);

    expect(ends).toHaveLength(1);
    expect(ends[0]!.error).toEqual({
      type: 'timeout',
      name: 'ProviderError',
      message: 'ProviderError: custom: no answer within 50 ms (modelCallTimeoutMs)',
      ownText: true,
      status: undefined,
      retryable: true,
    });

    const spans = sdk.spans();
    const chat = chatOf(spans);
    expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ProviderError: custom: no answer within 50 ms (modelCallTimeoutMs)' });
    expect(chat.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'custom',
      'gen_ai.request.model': 'm1',
      'error.type': 'timeout',
      'footprint.agent': 'agent',
      'footprint.brain': 'default',
      'footprint.iteration': 1,
      'footprint.llm.call_id': expect.stringMatching(/^call_[0-9a-z]+$/),
      // Sent the run's input alone ("Is invoice 42 paid?").
      ...runInputParts(5),
    });
    expect(rootOf(spans).attributes['footprint.run.outcome']).toBe('error');
    expect(sdk.unended()).toEqual([]);
  });

  it("reports exactly what an HTTP provider's own timeout reports: the same spans, error.type, llm_end and outcome", async () => {
    const custom = await failed(agentOn(neverAnswers()), (runner) => runner.run('q'));
    const customView = failureView(sdk.spans());
    sdk.reset();
    const http = await failed(agentOn(httpTimeout()), (runner) => runner.run('q'));
    const httpView = failureView(sdk.spans());

    expect(customView).toEqual(httpView);
    expect(customView.tree).toBe(['invoke_agent Waiting !ERROR error.type=timeout', '  Context', '  CallLLM !ERROR error.type=timeout', '    chat m1 [CLIENT] !ERROR error.type=timeout'].join('\n'));
    const errorOf = (ends: typeof custom.ends) => ends.map(({ error }) => ({ ...error, message: undefined }));
    expect(errorOf(custom.ends)).toEqual(errorOf(http.ends));
    expect([custom.error, http.error].map((error) => (error as Error).constructor)).toEqual([RunFailedError, RunFailedError]);
  });
});

describe('a custom stream that stalls after one part', () => {
  it('fails at modelCallTimeoutMs for the next part, keeping the part that came', async () => {
    const provider = stallsAfterOnePart();
    const { error, ends } = await failed(agentOn(provider), (runner) => drain(runner.stream('Is invoice 42 paid?')));

    expect(error).toBeInstanceOf(RunFailedError);
    const cause = (error as RunFailedError).cause as ProviderError;
    expect([cause.kind, cause.retryable, cause.message]).toEqual(['timeout', true, 'custom: the stream stalled: no next part within 50 ms (modelCallTimeoutMs)']);
    expect(provider.signals.map((signal) => [signal.aborted, (signal.reason as DOMException).name])).toEqual([[true, 'TimeoutError']]);

    expect(ends).toHaveLength(1);
    expect(ends[0]!.error).toEqual({
      type: 'timeout',
      name: 'ProviderError',
      message: 'ProviderError: custom: the stream stalled: no next part within 50 ms (modelCallTimeoutMs)',
      ownText: true,
      status: undefined,
      retryable: true,
    });
    expect(ends[0]!.streamed).toEqual({ chunks: 1, firstChunkMs: expect.any(Number), chunkGapsMs: [] });

    const chat = chatOf(sdk.spans());
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'custom',
      'gen_ai.request.model': 'm1',
      'gen_ai.request.stream': true,
      'gen_ai.response.time_to_first_chunk': ends[0]!.streamed!.firstChunkMs! / 1000,
      'error.type': 'timeout',
      'footprint.agent': 'agent',
      'footprint.brain': 'default',
      'footprint.iteration': 1,
      'footprint.llm.call_id': expect.stringMatching(/^call_[0-9a-z]+$/),
      // Sent the run's input alone ("Is invoice 42 paid?").
      ...runInputParts(5),
    });
    expect(sdk.unended()).toEqual([]);
  });
});

describe('a provider that settles after the deadline', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  /** A provider whose calls wait until the test settles them (resolve or reject), whatever the signal says. */
  function settledByTest() {
    const pending: { resolve: (response: LLMResponse) => void; reject: (error: unknown) => void }[] = [];
    const provider: LLMProvider = {
      name: 'custom',
      complete: () => new Promise<LLMResponse>((resolve, reject) => pending.push({ resolve, reject })),
    };
    return { provider, pending };
  }

  /** Lets Node report any rejection left unhandled by what just happened (it does so after the microtasks). */
  const afterUnhandledChecks = () => new Promise((resolve) => setTimeout(resolve, 10));

  it.each([
    ['rejects', (call: { reject: (error: unknown) => void }) => call.reject(new Error('late failure'))],
    ['answers', (call: { resolve: (response: LLMResponse) => void }) => call.resolve({ content: 'late answer', toolCalls: [], stopReason: 'end_turn' })],
  ] as const)('%s late: the run keeps its timeout, nothing is unhandled, no second llm_end', async (_how, settle) => {
    const { provider, pending } = settledByTest();
    const { error, ends } = await failed(agentOn(provider), (runner) => runner.run('q'));
    expect(((error as RunFailedError).cause as ProviderError).kind).toBe('timeout');

    expect(pending).toHaveLength(1);
    settle(pending[0] as never);
    await afterUnhandledChecks();
    expect(unhandled).toEqual([]);
    expect(ends.map((end) => end.error?.type)).toEqual(['timeout']);
  });

  it('a stalled stream part that rejects late is not unhandled either', async () => {
    let rejectLate: (error: unknown) => void = () => undefined;
    const provider: LLMProvider = {
      name: 'custom',
      complete: () => Promise.reject(new Error('complete() is not used by a streamed run')),
      stream: () => ({
        [Symbol.asyncIterator]: () => ({
          next: () => new Promise<IteratorResult<LLMStreamPart>>((_resolve, reject) => (rejectLate = reject)),
          return: () => Promise.reject(new Error('return() refused')),
        }),
      }),
    };
    const { error } = await failed(agentOn(provider), (runner) => drain(runner.stream('q')));
    expect(((error as RunFailedError).cause as ProviderError).message).toBe('custom: no stream part within 50 ms (modelCallTimeoutMs)');

    rejectLate(new Error('late stream failure'));
    await afterUnhandledChecks();
    expect(unhandled).toEqual([]);
  });
});

describe('what a wait leaves behind', () => {
  const LONG_DEADLINE_MS = 60_000;
  /** The deadline timers of the model calls' waits (the only timers of LONG_DEADLINE_MS here), and which were cleared. */
  let deadlines: unknown[] = [];
  let cleared: unknown[] = [];
  beforeEach(() => {
    deadlines = [];
    cleared = [];
    const setTimer = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number, ...args: unknown[]) => {
      const timer = setTimer(callback, ms, ...args);
      if (ms === LONG_DEADLINE_MS) deadlines.push(timer);
      return timer;
    }) as typeof setTimeout);
    const clearTimer = globalThis.clearTimeout;
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation((timer) => {
      cleared.push(timer);
      clearTimer(timer);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a provider whose complete() throws at once fails the call with that error, its deadline timer cleared', async () => {
    const provider: LLMProvider = {
      name: 'custom',
      complete: () => {
        throw new TypeError('bad request shape');
      },
    };
    const runner = Agent.create({ provider, model: 'm1', name: 'Waiting', modelCallTimeoutMs: LONG_DEADLINE_MS }).build();
    const { error, ends } = await failed(runner, (r) => r.run('q'));

    expect([(error as RunFailedError).cause instanceof TypeError, ((error as RunFailedError).cause as Error).message]).toEqual([true, 'bad request shape']);
    expect(ends.map((end) => end.error)).toEqual([{ type: 'TypeError', name: 'TypeError', message: 'TypeError: bad request shape', status: undefined, retryable: undefined }]);
    expect(deadlines).toHaveLength(1);
    expect(cleared).toContain(deadlines[0]);
  });

  it('a run cancelled while the provider waits clears the deadline timer at once', async () => {
    const controller = new AbortController();
    const provider: LLMProvider = {
      name: 'custom',
      complete: () => {
        setImmediate(() => controller.abort(new Error('user left')));
        return new Promise<LLMResponse>(() => undefined);
      },
    };
    const runner = Agent.create({ provider, model: 'm1', name: 'Waiting', modelCallTimeoutMs: LONG_DEADLINE_MS }).build();
    const { error, ends } = await failed(runner, (r) => r.run('q', { signal: controller.signal }));

    expect(error).toBeInstanceOf(RunCancelledError);
    expect(ends.map((end) => end.error?.type)).toEqual(['aborted']);
    expect(deadlines).toHaveLength(1);
    expect(cleared).toContain(deadlines[0]);
  });
});
