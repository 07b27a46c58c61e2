/**
 * The scripted provider's stream(): a reply in its own chunks or cut into pieces, tool calls in
 * fragments, usage and finish last; a delay before the first chunk and between chunks (read with
 * fake timers, so "when" is exact); a failure after some chunks; complete() unchanged, answering
 * after the same total time; bad chunking refused.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, ProviderError, scripted, type LLMRequest, type LLMStreamPart, type ScriptedReply } from '../../../src/index.js';

const REQUEST: LLMRequest = { model: 'm1', messages: [{ role: 'user', content: 'hello there' }] };

async function partsOf(stream: AsyncIterable<LLMStreamPart>): Promise<LLMStreamPart[]> {
  const parts: LLMStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('scripted stream()', () => {
  it("yields the reply's chunks, then usage, then finish with the model", async () => {
    const provider = scripted({ replies: [{ chunks: ['Hel', 'lo', '!'], usage: { input: 3, output: 2 } }] });
    expect(await partsOf(provider.stream!(REQUEST))).toEqual([
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo' },
      { type: 'text', delta: '!' },
      { type: 'usage', usage: { input: 3, output: 2 } },
      { type: 'finish', stopReason: 'end_turn', model: 'm1' },
    ]);
  });

  it('cuts text and tool-call arguments into chunkChars pieces, never inside a character', async () => {
    const provider = scripted({
      chunkChars: 2,
      replies: [{ content: 'é😀ab', toolCalls: [{ id: 'c1', name: 'look', args: { q: 1 } }], usage: null }],
    });
    expect(await partsOf(provider.stream!(REQUEST))).toEqual([
      { type: 'text', delta: 'é😀' },
      { type: 'text', delta: 'ab' },
      { type: 'tool_call', index: 0, id: 'c1', name: 'look', argumentsDelta: '{"' },
      { type: 'tool_call', index: 0, argumentsDelta: 'q"' },
      { type: 'tool_call', index: 0, argumentsDelta: ':1' },
      { type: 'tool_call', index: 0, argumentsDelta: '}' },
      { type: 'finish', stopReason: 'tool_use', model: 'm1' },
    ]);
  });

  it('waits delayMs before the first chunk and chunkDelayMs between chunks', async () => {
    vi.useFakeTimers();
    const provider = scripted({ chunkDelayMs: 10, replies: [{ chunks: ['a', 'b', 'c'], delayMs: 30, usage: null }] });
    const arrived: string[] = [];
    const start = Date.now();
    const done = (async () => {
      for await (const part of provider.stream!(REQUEST)) if (part.type === 'text') arrived.push(`${part.delta}@${Date.now() - start}`);
    })();
    await vi.advanceTimersByTimeAsync(29);
    expect(arrived).toEqual([]);
    await vi.advanceTimersByTimeAsync(30);
    await done;
    expect(arrived).toEqual(['a@30', 'b@40', 'c@50']);
  });

  it('answers complete() in one piece after the same total time', async () => {
    vi.useFakeTimers();
    const provider = scripted({ chunkDelayMs: 10, replies: [{ chunks: ['a', 'b', 'c'], delayMs: 30, usage: { input: 1, output: 1 } }] });
    let answered: unknown;
    void provider.complete(REQUEST).then((response) => (answered = response));
    await vi.advanceTimersByTimeAsync(49);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toEqual({ content: 'abc', toolCalls: [], usage: { input: 1, output: 1 }, stopReason: 'end_turn', model: 'm1' });
  });

  it('delivers errorAfterChunks chunks, then throws the error; complete() just throws it', async () => {
    const broken = new ProviderError({ provider: 'scripted', kind: 'malformed_response', message: 'cut' });
    const reply: ScriptedReply = { chunks: ['a', 'b', 'c'], error: broken, errorAfterChunks: 2 };
    const seen: LLMStreamPart[] = [];
    const streamed = (async () => {
      for await (const part of scripted({ replies: [reply] }).stream!(REQUEST)) seen.push(part);
    })();
    await expect(streamed).rejects.toBe(broken);
    expect(seen).toEqual([
      { type: 'text', delta: 'a' },
      { type: 'text', delta: 'b' },
    ]);
    await expect(scripted({ replies: [reply] }).complete(REQUEST)).rejects.toBe(broken);
  });

  it('stops waiting when the signal fires, with an aborted ProviderError', async () => {
    const controller = new AbortController();
    const provider = scripted({ chunkDelayMs: 10_000, replies: [{ chunks: ['a', 'b'] }] });
    const seen: string[] = [];
    const streamed = (async () => {
      for await (const part of provider.stream!(REQUEST, { signal: controller.signal })) {
        if (part.type === 'text') seen.push(part.delta);
        controller.abort();
      }
    })();
    const error = await streamed.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('aborted');
    expect(seen).toEqual(['a']);
  });

  it('fails a stream whose tool arguments have no JSON text with a script ProviderError; complete() still answers', async () => {
    const args: Record<string, unknown> = {};
    args.again = args;
    const reply: ScriptedReply = { toolCalls: [{ id: 'c1', name: 'look', args }] };
    const error = await partsOf(scripted({ replies: [reply] }).stream!(REQUEST)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('script');
    expect((error as ProviderError).message).toMatch(/^scripted provider: a tool call's args cannot be streamed as JSON: TypeError: Converting circular structure to JSON/);
    expect((await scripted({ replies: [reply] }).complete(REQUEST)).toolCalls[0]!.args).toBe(args);
  });

  it('refuses chunking it cannot play, naming the problem', () => {
    const refused = (reply: unknown) => () => scripted({ replies: [reply as ScriptedReply] });
    expect(refused({ chunks: ['a', 2] })).toThrow(new ConfigError('scripted provider "scripted": reply 0 has chunks that are not a list of strings'));
    expect(refused({ content: 'ab', chunks: ['a', 'c'] })).toThrow(
      new ConfigError('scripted provider "scripted": reply 0 has chunks that do not add up to its content'),
    );
    expect(refused({ chunkDelayMs: -1 })).toThrow(new ConfigError('scripted provider "scripted": reply 0 has a chunkDelayMs that is not a finite number >= 0'));
    expect(refused({ errorAfterChunks: 1 })).toThrow(new ConfigError('scripted provider "scripted": reply 0 has an errorAfterChunks but no error to throw'));
    expect(refused({ error: new Error('x'), errorAfterChunks: 1.5 })).toThrow(
      new ConfigError('scripted provider "scripted": reply 0 has an errorAfterChunks that is not a whole number >= 0'),
    );
    expect(() => scripted({ chunkChars: 0, replies: ['a'] })).toThrow(new ConfigError('scripted provider "scripted": chunkChars must be a whole number >= 1'));
    expect(() => scripted({ chunkDelayMs: Number.NaN, replies: ['a'] })).toThrow(
      new ConfigError('scripted provider "scripted": chunkDelayMs must be a finite number >= 0'),
    );
  });
});
