/**
 * Back-pressure and ending early, at the runtime: a consumer that never reads holds the run at the
 * stream's capacity (the provider is not pulled further); a slow one never has more than that many
 * chunks waiting; breaking out, return() and the caller's signal cancel the run, let the provider's
 * stream go with its signal fired, and reject `result` with RunCancelledError.
 */
import { describe, expect, it } from 'vitest';
import { Agent, ProviderError, RunCancelledError, scripted, StreamClosedError, type RunStreamPart } from '../../../src/index.js';
import { STREAM_CAPACITY } from '../../../src/runtime/run/runStream.js';
import { collect } from '../../fixtures/collect.js';
import { chunksHeard, drain, observed, settle, textOf } from '../../support/streams.js';

const LONG = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN'; // 40 one-character chunks

/** An agent whose one reply is `content` in one-character chunks, `chunkDelayMs` apart. */
function chunkyAgent(options: { content?: string; chunkDelayMs?: number } = {}) {
  const { provider, log } = observed(scripted({ chunkChars: 1, chunkDelayMs: options.chunkDelayMs ?? 0, replies: [options.content ?? LONG] }));
  const agent = Agent.create({ provider, model: 'm1', id: 'chunky' }).build();
  return { agent, log, seen: collect(agent) };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

describe('a consumer that never reads', () => {
  it('holds the run at the capacity: the provider is pulled no further until a part is read', async () => {
    const { agent, log, seen } = chunkyAgent();
    const full = chunksHeard(agent, STREAM_CAPACITY);
    const stream = agent.stream('go');
    await full;
    await settle();
    expect(STREAM_CAPACITY).toBe(16);
    expect(log.pulled).toBe(STREAM_CAPACITY);
    expect(seen.of('footprint.call.llm_chunk')).toHaveLength(STREAM_CAPACITY);
    const oneMore = chunksHeard(agent, 1);
    expect((await stream.next()).value).toMatchObject({ type: 'text', delta: 'a' });
    await oneMore;
    await settle();
    expect(log.pulled).toBe(STREAM_CAPACITY + 1);
    await stream.return();
    expect(log.endings).toEqual(['returned']);
    expect(log.abortedAtEnd).toEqual([true]);
  });

  it('is cancelled by return() without ever reading: the result rejects with RunCancelledError', async () => {
    const { agent, log, seen } = chunkyAgent();
    const full = chunksHeard(agent, STREAM_CAPACITY);
    const stream = agent.stream('go');
    await full;
    expect(await stream.return()).toEqual({ value: undefined, done: true });
    const error = await rejection(stream.result);
    expect(error).toBeInstanceOf(RunCancelledError);
    // As in run(): the cause is the cancelled model request, whose cause is the signal's reason.
    const request = (error as RunCancelledError).cause as ProviderError;
    expect([request.kind, request.cause instanceof StreamClosedError]).toEqual(['aborted', true]);
    expect(log.endings).toEqual(['returned']);
    expect(seen.of('footprint.call.llm_end').map((e) => [e.error?.type, e.streamed?.chunks])).toEqual([['aborted', STREAM_CAPACITY]]);
    // The stream is over: nothing more to read.
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it("is cancelled by the caller's signal while the run waits for room", async () => {
    const { agent, log } = chunkyAgent();
    const controller = new AbortController();
    const full = chunksHeard(agent, STREAM_CAPACITY);
    const stream = agent.stream('go', { signal: controller.signal });
    await full;
    controller.abort(new Error('user left'));
    const error = await rejection(stream.result);
    expect(error).toBeInstanceOf(RunCancelledError);
    expect((((error as RunCancelledError).cause as ProviderError).cause as Error).message).toBe('user left');
    expect(log.endings).toEqual(['returned']);
    // What was queued is still read, then the iteration ends with the run's error.
    const parts: RunStreamPart[] = [];
    const thrown = await rejection(
      (async () => {
        for await (const part of stream) parts.push(part);
      })(),
    );
    expect(parts).toHaveLength(STREAM_CAPACITY);
    expect(thrown).toBe(error);
  });
});

describe('a signal that fires while a chunk is delivered', () => {
  it('cancels the run even when that chunk filled the stream', async () => {
    const { agent, log } = chunkyAgent();
    const controller = new AbortController();
    agent.on('footprint.call.llm_chunk', ({ payload }) => {
      if (payload.index === STREAM_CAPACITY - 1) controller.abort(new Error('enough'));
    });
    const stream = agent.stream('go', { signal: controller.signal });
    expect(await rejection(stream.result)).toBeInstanceOf(RunCancelledError);
    expect(log.pulled).toBe(STREAM_CAPACITY);
    expect(log.endings).toEqual(['returned']);
  });
});

describe('a slow consumer', () => {
  it('gets every part while never more than the capacity of chunks wait for it', async () => {
    const content = LONG + LONG; // 80 chunks
    const { agent, seen } = chunkyAgent({ content });
    let emitted = 0;
    let read = 0;
    let mostWaiting = 0;
    agent.on('footprint.call.llm_chunk', () => {
      emitted++;
      mostWaiting = Math.max(mostWaiting, emitted - read);
    });
    const parts: RunStreamPart[] = [];
    for await (const part of agent.stream('go')) {
      read++;
      parts.push(part);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(textOf(parts)).toBe(content);
    expect(parts.at(-1)).toEqual({ type: 'end', result: expect.objectContaining({ text: content }) });
    expect(emitted).toBe(80);
    expect(mostWaiting).toBe(STREAM_CAPACITY);
    expect(seen.of('footprint.call.llm_end')[0]!.streamed?.chunks).toBe(80);
  });
});

describe('a model call made while the consumer is behind', () => {
  it('starts when the consumer has room: its time to first chunk is the model\'s, not the time the consumer took', async () => {
    // Call 1: 15 one-character chunks, then a tool call (its tool_call and tool_result parts make 17
    // waiting, past the capacity); call 2 answers at once. The consumer reads nothing for 300 ms.
    const provider = scripted({ chunkChars: 1, replies: [{ content: 'abcdefghijklmno', toolCalls: [{ name: 'noop' }] }, 'ok'] });
    const agent = Agent.create({ provider, model: 'm1', id: 'behind' })
      .tool({ name: 'noop', description: 'does nothing', inputSchema: { type: 'object', properties: {} }, execute: async () => 'done' })
      .build();
    const seen = collect(agent);
    const order: string[] = [];
    agent.on('footprint.call.llm_start', (e) => order.push(`llm_start ${e.payload.iteration}`));
    agent.on('footprint.call.tool_end', () => order.push('tool_end'));
    const stream = agent.stream('go');
    await settle(300);
    order.push('consumer reads');
    const parts = await drain(stream);
    expect(textOf(parts)).toBe('abcdefghijklmnook');
    // The second request is sent (and its call starts) only once the consumer has made room.
    expect(order).toEqual(['llm_start 1', 'tool_end', 'consumer reads', 'llm_start 2']);
    const [first, second] = seen.of('footprint.call.llm_end');
    expect(first!.streamed!.firstChunkMs).toBeLessThan(100);
    expect(second!.streamed!.firstChunkMs).toBeLessThan(100);
    expect(second!.durationMs).toBeLessThan(100);
  });

  it('is cancelled by the caller\'s signal while it waits to start: no request is sent', async () => {
    const { provider, log } = observed(scripted({ chunkChars: 1, replies: [{ content: 'abcdefghijklmno', toolCalls: [{ name: 'noop' }] }, 'ok'] }));
    const agent = Agent.create({ provider, model: 'm1', id: 'behind' })
      .tool({ name: 'noop', description: 'does nothing', inputSchema: { type: 'object', properties: {} }, execute: async () => 'done' })
      .build();
    const seen = collect(agent);
    const controller = new AbortController();
    const ended = new Promise<void>((resolve) => agent.on('footprint.call.tool_end', () => resolve()));
    const stream = agent.stream('go', { signal: controller.signal });
    await ended;
    await settle();
    controller.abort(new Error('user left'));
    const error = await rejection(stream.result);
    expect(error).toBeInstanceOf(RunCancelledError);
    const cause = (error as RunCancelledError).cause as ProviderError;
    expect([cause.kind, (cause.cause as Error).message]).toEqual(['aborted', 'user left']);
    expect(seen.of('footprint.call.llm_start').map((e) => e.iteration)).toEqual([1]);
    expect(log.endings).toEqual(['done']);
    expect(await stream.return()).toEqual({ value: undefined, done: true });
  });
});

describe('ending early', () => {
  it('breaking out after the first chunk cancels the model request and the run', async () => {
    const { agent, log, seen } = chunkyAgent({ chunkDelayMs: 5 });
    const stream = agent.stream('go');
    const parts: RunStreamPart[] = [];
    for await (const part of stream) {
      parts.push(part);
      break;
    }
    expect(parts).toEqual([expect.objectContaining({ type: 'text', delta: 'a' })]);
    // The break awaited return(): the run has settled, cancelled, and the provider stream has ended
    // (scripted was waiting for its next chunk: it saw the signal and threw).
    expect(log.endings).toEqual(['threw']);
    expect(log.abortedAtEnd).toEqual([true]);
    expect(await rejection(stream.result)).toBeInstanceOf(RunCancelledError);
    expect(seen.of('footprint.call.llm_end').map((e) => [e.error?.type, e.streamed?.chunks])).toEqual([['aborted', 1]]);
    expect(seen.of('footprint.agent.turn_end')).toEqual([]);
  });

  it("aborting the caller's signal mid-stream ends the iteration with RunCancelledError", async () => {
    const { agent, log } = chunkyAgent({ chunkDelayMs: 5 });
    const controller = new AbortController();
    const stream = agent.stream('go', { signal: controller.signal });
    const parts: RunStreamPart[] = [];
    const thrown = await rejection(
      (async () => {
        for await (const part of stream) {
          parts.push(part);
          if (parts.length === 2) controller.abort(new Error('user left'));
        }
      })(),
    );
    expect(thrown).toBeInstanceOf(RunCancelledError);
    expect(await rejection(stream.result)).toBe(thrown);
    expect(textOf(parts)).toBe('ab');
    expect(log.endings).toEqual(['threw']);
    expect(log.abortedAtEnd).toEqual([true]);
  });

  it('a signal already aborted cancels before the provider is called', async () => {
    const { agent, log } = chunkyAgent();
    const stream = agent.stream('go', { signal: AbortSignal.abort(new Error('too late')) });
    await expect(drain(stream)).rejects.toBeInstanceOf(RunCancelledError);
    expect(log.pulled).toBe(0);
  });

  it('return() after the run finished changes nothing: the result stays the answer', async () => {
    const { agent } = chunkyAgent({ content: 'ok' });
    const stream = agent.stream('go');
    expect((await stream.result).text).toBe('ok');
    expect(await stream.return()).toEqual({ value: undefined, done: true });
    expect((await stream.result).text).toBe('ok');
  });
});
