/**
 * Provider replies are checked at the runtime's boundary: whatever a custom or scripted provider
 * answers, a reply that is not an LLMResponse (or carries impossible token counts) fails the run with
 * a ProviderError `malformed_response` naming the field, never a TypeError from deep in the agent.
 */
import { describe, expect, it } from 'vitest';
import { Agent, ConfigError, isProviderError, RunFailedError, scripted, type LLMProvider } from '../../../src/runtime/index.js';
import { validateResponse } from '../../../src/runtime/providers/validateResponse.js';

const GOOD = { content: 'hi', toolCalls: [], usage: { input: 1, output: 2 }, stopReason: 'end_turn' };

/** A custom provider answering `reply` (any value at all). */
function answering(reply: unknown): LLMProvider {
  return { name: 'custom', complete: async () => reply as never };
}

async function failureOf(provider: LLMProvider): Promise<RunFailedError> {
  const agent = Agent.create({ provider, model: 'm', id: 'a' }).build();
  const error = await agent.run('hello').then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof RunFailedError)) throw new Error(`expected a RunFailedError, got ${String(error)}`);
  return error;
}

describe('a custom provider with a malformed reply fails the run with malformed_response', () => {
  it.each([
    [42, 'the reply is a number, not an object'],
    [null, 'the reply is null, not an object'],
    [undefined, 'the reply is missing, not an object'],
    [[GOOD], 'the reply is an array, not an object'],
    [{ ...GOOD, content: 5 }, 'content is a number, not a string'],
    [{ ...GOOD, toolCalls: 'call it' }, 'toolCalls is a string, not an array'],
    [{ ...GOOD, toolCalls: [null] }, 'toolCalls[0] is null, not an object'],
    [{ ...GOOD, toolCalls: [{ id: 'c1', name: 7, args: {} }] }, 'toolCalls[0].name is a number, not a string'],
    [{ ...GOOD, toolCalls: [{ id: 'c1', name: 't', args: '{}' }] }, 'toolCalls[0].args is a string, not an object'],
    [{ ...GOOD, toolCalls: [{ name: 't', args: {} }] }, 'toolCalls[0].id is missing, not a string'],
    [{ ...GOOD, usage: { input: -5, output: 1 } }, 'usage.input is a negative number, not a finite number >= 0'],
    [{ ...GOOD, usage: { input: 5, output: Number.NaN } }, 'usage.output is NaN, not a finite number >= 0'],
    [{ ...GOOD, usage: { input: 5, output: 1, cacheRead: Infinity } }, 'usage.cacheRead is infinite, not a finite number >= 0'],
    [{ ...GOOD, usage: { input: 5, output: 1, reasoning: -1 } }, 'usage.reasoning is a negative number, not a finite number >= 0'],
    [{ ...GOOD, usage: null }, 'usage is null, not an object'],
    [{ ...GOOD, usage: 'none' }, 'usage is a string, not an object'],
    [{ ...GOOD, stopReason: 1 }, 'stopReason is a number, not a string'],
    [{ ...GOOD, model: {} }, 'model is an object, not a string'],
    [{ ...GOOD, id: 3 }, 'id is a number, not a string'],
    [{ ...GOOD, previousResponseId: false }, 'previousResponseId is a boolean, not a string'],
    [{ ...GOOD, toolCalls: [{ id: 'c1', name: 't', args: {} }, 7] }, 'toolCalls[1] is a number, not an object'],
    // A sparse array (a hole where a call should be) is a missing call, not one the agent trips on later.
    [{ ...GOOD, toolCalls: [, { id: 'c1', name: 't', args: {} }] }, 'toolCalls[0] is missing, not an object'],
  ])('%j', async (reply, why) => {
    const failure = await failureOf(answering(reply));
    const cause = failure.cause;
    expect(isProviderError(cause)).toBe(true);
    expect(cause).toMatchObject({ name: 'ProviderError', provider: 'custom', kind: 'malformed_response', retryable: false, raw: undefined });
    expect((cause as Error).message).toBe(`custom: malformed response: ${why}`);
    expect(failure.message).toBe(`run ${failure.runId} failed in agent "a" at stage "${failure.stage}": ProviderError: custom: malformed response: ${why}`);
  });

  it('a valid reply comes back as a fresh object holding only the port fields', () => {
    const reply = { ...GOOD, model: 'm-1', id: 'r-1', extra: 'dropped', usage: { input: 1, output: 2, cacheRead: 0, reasoning: 1, junk: 1 } };
    expect(validateResponse('custom', reply)).toEqual({ ...GOOD, model: 'm-1', id: 'r-1', usage: { input: 1, output: 2, cacheRead: 0, reasoning: 1 } });
  });

  it("a valid reply's tool calls come back as fresh objects holding only the port fields, in order", () => {
    const args = { city: 'Lyon' };
    const reply = { ...GOOD, toolCalls: [{ id: 'c1', name: 'weather', args, extra: 1 }, { id: 'c2', name: '', args: {} }] };
    const validated = validateResponse('custom', reply);
    expect(validated.toolCalls).toEqual([{ id: 'c1', name: 'weather', args }, { id: 'c2', name: '', args: {} }]);
    expect(validated.toolCalls[0]).not.toBe(reply.toolCalls[0]);
    expect(validated.toolCalls[0]!.args).toBe(args);
  });

  it('a reply without usage is valid and stays without usage (unknown, not zero)', () => {
    const { usage: _usage, ...withoutUsage } = GOOD;
    const validated = validateResponse('custom', withoutUsage);
    expect(validated).toEqual(withoutUsage);
    expect('usage' in validated).toBe(false);
  });
});

describe('scripted replies', () => {
  it('a list with a reply that is not one is refused at creation', () => {
    expect(() => scripted({ replies: [42 as never] })).toThrow(new ConfigError('scripted provider "scripted": reply 0 is a number, not a string or a reply object'));
    expect(() => scripted({ replies: ['ok', { usage: { input: -5, output: Number.NaN } }] })).toThrow(
      new ConfigError('scripted provider "scripted": reply 1 has a usage that is no usage: usage.input is a negative number, not a finite number >= 0'),
    );
    expect(() => scripted({ replies: [{ toolCalls: [{ name: 5 as never }] }] })).toThrow(
      new ConfigError(
        'scripted provider "scripted": reply 0 has toolCalls[0] without a name, or with an id that is not a string or args that are not an object',
      ),
    );
    expect(() => scripted({ replies: [{ usage: { input: 1, output: 1, reasoning: -1 } }] })).toThrow(
      new ConfigError('scripted provider "scripted": reply 0 has a usage that is no usage: usage.reasoning is a negative number, not a finite number >= 0'),
    );
    expect(() => scripted({ replies: 'hi' as never })).toThrow(new ConfigError('scripted provider "scripted": replies must be a list or a function'));
  });

  it("a reply function's bad answer fails the call with a ProviderError of kind script", async () => {
    const failure = await failureOf(scripted({ replies: () => 42 as never, name: 'fn' }));
    expect(failure.cause).toMatchObject({ name: 'ProviderError', provider: 'fn', kind: 'script' });
    expect((failure.cause as Error).message).toBe('scripted provider: the reply to call 0 is a number, not a string or a reply object');
  });
});

describe('Agent.create', () => {
  it('without options: a ConfigError, not a TypeError', () => {
    expect(() => (Agent.create as (options?: unknown) => unknown)()).toThrow(new ConfigError('Agent.create needs options: { provider, model }'));
  });
});

describe('the one usage policy (src/runtime/providers/usage.ts), the same for every provider', () => {
  it('a usage without its input or output count is no usage (unknown), not a malformed reply', () => {
    for (const usage of [{ input: 5 }, { output: 3 }, { cacheRead: 2 }]) {
      const validated = validateResponse('custom', { ...GOOD, usage });
      expect('usage' in validated).toBe(false);
    }
  });

  it('a present count that is no count makes a malformed reply, in the same words from a custom provider and a scripted list', () => {
    expect(() => validateResponse('custom', { ...GOOD, usage: { input: 5, output: 1, cacheWrite: 'x' } })).toThrow(
      'custom: malformed response: usage.cacheWrite is a string, not a finite number >= 0',
    );
    expect(() => scripted({ replies: [{ usage: { input: 5, output: 1, cacheWrite: 'x' as never } }] })).toThrow(
      new ConfigError('scripted provider "scripted": reply 0 has a usage that is no usage: usage.cacheWrite is a string, not a finite number >= 0'),
    );
  });
});
