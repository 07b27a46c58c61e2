/**
 * Settings that cannot work are refused where they are given, each with a ConfigError naming the
 * field and what it takes: the HTTP providers' deadline, retries and backoff, an Agent's or LLMCall's
 * sampling, model-call deadline and tool bounds, a tool's deadline, the compositions' counts, a
 * run's signal and conversationId; the CLI's
 * numeric flags say the same through its usage error. One rule (run/settings.ts) checks them all, so
 * every number below fails the same way whichever setting it is given to.
 */
import { describe, expect, it } from 'vitest';
import {
  Agent,
  anthropic,
  ConfigError,
  LLMCall,
  llmRouter,
  llmSwarm,
  Loop,
  openaiCompatible,
  scripted,
  swarm,
  type Runner,
} from '../../../src/index.js';
import { parseCommand, UsageError } from '../../../src/cli/args.js';
import { refundAgent } from '../../fixtures/refundAgent.js';
import { drain } from '../../support/streams.js';

const provider = () => scripted({ replies: ['ok'] });
const tool = (extra: Record<string, unknown> = {}) => ({ name: 'noop', description: 'Does nothing', inputSchema: { type: 'object' }, execute: () => 'ok', ...extra });

/** The ConfigError `make` throws (fails the test when it throws anything else, or nothing). */
function configErrorOf(make: () => unknown): { field?: string; message: string } {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { field: (error as ConfigError).field, message: (error as ConfigError).message };
  }
  throw new Error('expected a ConfigError');
}

/** Values no numeric setting takes, and how each is shown in the message. */
const NOT_A_COUNT: [unknown, string][] = [
  [-1, '-1'],
  [NaN, 'NaN'],
  [Infinity, 'Infinity'],
  [1e10, '10000000000'],
  [1.5, '1.5'],
  ['3', '"3"'],
  [null, 'null'],
  [{}, 'an object'],
];

describe('an HTTP provider', () => {
  const makers = {
    openaiCompatible: (o: Record<string, unknown>) => openaiCompatible({ baseURL: 'http://127.0.0.1:9/v1', ...o }),
    anthropic: (o: Record<string, unknown>) => anthropic({ baseURL: 'http://127.0.0.1:9', ...o }),
  };
  const owner = { openaiCompatible: 'openai', anthropic: 'anthropic' };

  for (const [name, make] of Object.entries(makers) as [keyof typeof makers, (typeof makers)[keyof typeof makers]][]) {
    it.each([
      ['timeoutMs', -1, 'a whole number from 1 to 2147483647 (got -1)'],
      ['timeoutMs', 0, 'a whole number from 1 to 2147483647 (got 0)'],
      ['timeoutMs', NaN, 'a whole number from 1 to 2147483647 (got NaN)'],
      ['timeoutMs', 3e9, 'a whole number from 1 to 2147483647 (got 3000000000)'],
      ['maxRetries', 1e9, 'a whole number from 0 to 100 (got 1000000000)'],
      ['maxRetries', -1, 'a whole number from 0 to 100 (got -1)'],
      ['retryBaseMs', -5, 'a whole number from 0 to 2147483647 (got -5)'],
    ])(`${name}: %s = %s is refused at creation`, (field, value, takes) => {
      expect(configErrorOf(() => make({ [field]: value }))).toEqual({ field, message: `${owner[name]}: ${field} must be ${takes}` });
    });

    it(`${name}: a fetch that is not a function is refused`, () => {
      expect(configErrorOf(() => make({ fetch: 'fetch' }))).toEqual({ field: 'fetch', message: `${owner[name]}: fetch must be a function like the global fetch` });
    });
  }

  it('scripted: a delayMs of -1 is refused the same way', () => {
    expect(configErrorOf(() => scripted({ replies: ['x'], delayMs: -1 }))).toEqual({
      field: 'delayMs',
      message: 'scripted provider "scripted": delayMs must be a whole number from 0 to 2147483647 (got -1)',
    });
  });

  it("anthropic: maxTokens -5 is refused", () => {
    expect(configErrorOf(() => anthropic({ maxTokens: -5 }))).toEqual({
      field: 'maxTokens',
      message: 'anthropic: maxTokens must be a whole number from 1 to 100000000 (got -5)',
    });
  });

  it('takes every setting at the edges of its range', () => {
    expect(() => openaiCompatible({ baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 1, maxRetries: 0, retryBaseMs: 0 })).not.toThrow();
    expect(() => anthropic({ timeoutMs: 2_147_483_647, maxRetries: 100, maxTokens: 1 })).not.toThrow();
  });
});

describe('an Agent', () => {
  const build = (options: Record<string, unknown>) => () => Agent.create({ provider: provider(), model: 'm', id: 'a1', ...options }).build();

  it.each([
    ['temperature', NaN, 'a number from 0 to 2 (got NaN)'],
    ['temperature', -0.1, 'a number from 0 to 2 (got -0.1)'],
    ['temperature', 'hot', 'a number from 0 to 2 (got "hot")'],
    ['maxTokens', -5, 'a whole number from 1 to 100000000 (got -5)'],
    ['maxTokens', 0.5, 'a whole number from 1 to 100000000 (got 0.5)'],
    ['maxIterations', 0, 'a whole number from 1 to 1000 (got 0)'],
    ['maxIterations', 1e9, 'a whole number from 1 to 1000 (got 1000000000)'],
    ['maxToolCallsPerReply', 0, 'a whole number from 1 to 1000 (got 0)'],
    ['maxToolCallsPerReply', NaN, 'a whole number from 1 to 1000 (got NaN)'],
    ['toolConcurrency', -1, 'a whole number from 1 to 1000 (got -1)'],
    ['toolConcurrency', 2.5, 'a whole number from 1 to 1000 (got 2.5)'],
    ['toolTimeoutMs', 0, 'a whole number from 1 to 2147483647 (got 0)'],
    ['toolTimeoutMs', NaN, 'a whole number from 1 to 2147483647 (got NaN)'],
    ['modelCallTimeoutMs', 0, 'a whole number from 1 to 2147483647 (got 0)'],
    ['modelCallTimeoutMs', 2_147_483_648, 'a whole number from 1 to 2147483647 (got 2147483648)'],
    ['modelCallTimeoutMs', '50', 'a whole number from 1 to 2147483647 (got "50")'],
  ])('%s = %s is refused at build', (field, value, takes) => {
    expect(configErrorOf(build({ [field]: value }))).toEqual({ field, message: `agent "a1": ${field} must be ${takes}` });
  });

  it.each(NOT_A_COUNT)('a tool whose timeoutMs is %s is refused at build', (value, shown) => {
    expect(configErrorOf(() => Agent.create({ provider: provider(), model: 'm', id: 'a1' }).tool(tool({ timeoutMs: value })).build())).toEqual({
      field: 'timeoutMs',
      message: `agent "a1": tool "noop": timeoutMs must be a whole number from 1 to 2147483647 (got ${shown})`,
    });
  });

  it('takes every setting at the edges of its range', () => {
    const options = { temperature: 2, maxTokens: 1, maxIterations: 1_000, maxToolCallsPerReply: 1, toolConcurrency: 1_000, toolTimeoutMs: 1, modelCallTimeoutMs: 2_147_483_647 };
    expect(build(options)()).toBeInstanceOf(Agent);
  });
});

describe('an LLMCall', () => {
  it.each([
    ['temperature', NaN, 'a number from 0 to 2 (got NaN)'],
    ['maxTokens', -5, 'a whole number from 1 to 100000000 (got -5)'],
    ['modelCallTimeoutMs', -1, 'a whole number from 1 to 2147483647 (got -1)'],
  ])('%s = %s is refused at build', (field, value, takes) => {
    expect(configErrorOf(() => LLMCall.create({ provider: provider(), model: 'm', id: 'c1', [field]: value }).build())).toEqual({
      field,
      message: `llm_call "c1": ${field} must be ${takes}`,
    });
  });
});

describe('a composition', () => {
  const agent = () => Agent.create({ provider: provider(), model: 'm', id: 'a' }).build();

  it.each(NOT_A_COUNT)('swarm maxHandoffs %s is refused', (value, shown) => {
    expect(configErrorOf(() => swarm({ id: 's', agents: [{ id: 'a', runner: agent() }], pick: () => 'a', maxHandoffs: value as number }))).toEqual({
      field: 'maxHandoffs',
      message: `swarm "s": maxHandoffs must be a whole number from 1 to 100 (got ${shown})`,
    });
  });

  it("llmRouter's modelCallTimeoutMs is checked as its model call's", () => {
    expect(configErrorOf(() => llmRouter({ id: 'desk', provider: provider(), model: 'm', agents: [{ id: 'a', description: 'A' }], modelCallTimeoutMs: NaN }))).toEqual({
      field: 'modelCallTimeoutMs',
      message: 'llm_call "desk": modelCallTimeoutMs must be a whole number from 1 to 2147483647 (got NaN)',
    });
  });

  it("llmSwarm's modelCallTimeoutMs reaches its router's model call", () => {
    expect(configErrorOf(() => llmSwarm({ id: 'ls', routerId: 'pick', provider: provider(), model: 'm', agents: [{ id: 'a', description: 'A', runner: agent() }], modelCallTimeoutMs: 0 }))).toEqual({
      field: 'modelCallTimeoutMs',
      message: 'llm_call "pick": modelCallTimeoutMs must be a whole number from 1 to 2147483647 (got 0)',
    });
  });

  it('llmSwarm maxHandoffs 0 is refused the same way', () => {
    const make = () => llmSwarm({ id: 'ls', provider: provider(), model: 'm', agents: [{ id: 'a', description: 'A', runner: agent() }], maxHandoffs: 0 });
    expect(configErrorOf(make).field).toBe('maxHandoffs');
  });

  it.each(NOT_A_COUNT)('Loop times(%s) is refused', (value, shown) => {
    expect(configErrorOf(() => Loop.create({ id: 'l' }).repeat(agent()).times(value as number))).toEqual({
      field: 'times(n)',
      message: `Loop "l": times(n) must be a whole number from 1 to 100 (got ${shown})`,
    });
  });

  it('Loop until() maxPasses -1 is refused', () => {
    expect(configErrorOf(() => Loop.create({ id: 'l' }).repeat(agent()).until(() => true, { maxPasses: -1 }))).toEqual({
      field: 'maxPasses',
      message: 'Loop "l": maxPasses must be a whole number from 1 to 100 (got -1)',
    });
  });
});

describe('a run', () => {
  const runner = (): Runner => Agent.create({ provider: provider(), model: 'm', id: 'r1' }).build();

  it.each([
    [{ aborted: true }, 'an object'],
    ['signal', '"signal"'],
    [42, '42'],
    [new AbortController(), 'an object'],
  ])('run() with a signal that is not an AbortSignal (%s) rejects with a ConfigError at the call', async (signal, shown) => {
    const error = await runner()
      .run('x', { signal: signal as AbortSignal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect([(error as ConfigError).field, (error as ConfigError).message]).toEqual(['signal', `agent "r1": run(): signal must be an AbortSignal (got ${shown})`]);
  });

  it.each([
    [42, '42'],
    ['', '""'],
    ['x'.repeat(257), '257 characters'],
    ['line\nbreak', '"line\\nbreak"'],
    ['bell\u0007', '"bell\\u0007"'],
    ['c1\u0085', '"c1\\u0085"'],
  ])('run() with the conversationId %j rejects with a ConfigError at the call, and no model call is made', async (conversationId, shown) => {
    let calls = 0;
    const counted = Agent.create({ provider: scripted({ replies: () => (calls++, 'ok') }), model: 'm', id: 'r1' }).build();
    const error = await counted.run('x', { conversationId: conversationId as string }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect([(error as ConfigError).field, (error as ConfigError).message]).toEqual([
      'conversationId',
      `agent "r1": run(): conversationId must be a non-empty string of at most 256 characters without control characters (got ${shown})`,
    ]);
    expect(calls).toBe(0);
  });

  it('stream() fails its stream with the same ConfigError for a bad conversationId; a conversationId of 256 characters is taken', async () => {
    const error = await drain(runner().stream('x', { conversationId: '' })).catch((e: unknown) => e);
    expect([(error as ConfigError).name, (error as ConfigError).field]).toEqual(['ConfigError', 'conversationId']);
    expect((await runner().run('x', { conversationId: `sess-${'é'.repeat(251)}` })).text).toBe('ok');
  });

  it('run() with options that are not an object rejects with a ConfigError', async () => {
    const error = await runner()
      .run('x', null as never)
      .catch((e: unknown) => e);
    expect([(error as ConfigError).name, (error as ConfigError).field]).toEqual(['ConfigError', 'options']);
  });

  it('resume() checks its signal the same way, before touching the checkpoint', async () => {
    const agent = refundAgent();
    const error = await agent.resume({}, 'yes', { signal: 'soon' as never }).catch((e: unknown) => e);
    expect([(error as ConfigError).name, (error as ConfigError).message]).toEqual(['ConfigError', 'agent "refunds": resume(): signal must be an AbortSignal (got "soon")']);
  });

  it('takes a real AbortSignal, and one from another implementation with the same surface', async () => {
    expect((await runner().run('x', { signal: new AbortController().signal })).text).toBe('ok');
    const target = new EventTarget();
    const lookalike = Object.assign(target, { aborted: false, reason: undefined, throwIfAborted() {}, onabort: null, any: undefined });
    expect((await runner().run('x', { signal: lookalike as unknown as AbortSignal })).text).toBe('ok');
  });
});

describe("the CLI's numeric flags", () => {
  it.each([
    [['--runs', '-5'], '--runs must be a whole number from 1 to 1000000 (got -5)'],
    [['--runs', '1e9'], '--runs must be a whole number from 1 to 1000000 (got 1000000000)'],
    [['--concurrency', 'NaN'], '--concurrency must be a whole number from 1 to 1000 (got "NaN")'],
    [['--seed', '-1'], '--seed must be a whole number from 0 to 2147483647 (got -1)'],
  ])('%j is a usage error naming the flag and what it takes', (argv, message) => {
    expect(() => parseCommand(argv, false)).toThrow(new UsageError(message));
  });

  it('a flag followed by another flag still says its value is missing', () => {
    expect(() => parseCommand(['--runs', '--seed', '3'], false)).toThrow(/--runs/);
  });

  it('takes a good number after a flag', () => {
    expect(parseCommand(['--runs', '3', '--concurrency', '2', '--seed', '0'], false)).toMatchObject({ kind: 'demo', runs: 3, concurrency: 2, seed: 0 });
  });
});
