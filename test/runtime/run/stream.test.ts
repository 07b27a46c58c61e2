/**
 * Agent.stream() and LLMCall.stream(): the same answer as run(), as exact part sequences; the
 * per-chunk event for listeners (and never for instruments); tool calls assembled from deltas; a
 * complete()-only provider as one chunk; a provider stream that fails mid-way; bad input.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  LLMCall,
  ProviderError,
  registerInstrument,
  RunFailedError,
  scripted,
  type EventType,
  type LLMProvider,
  type LLMStreamPart,
} from '../../../src/index.js';
import { collect } from '../../fixtures/collect.js';
import { drain, observed, text, textOf } from '../../support/streams.js';

const AGENT = { kind: 'agent', id: 'helper' } as const;
const lookup = {
  name: 'lookup',
  description: 'Look something up',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  execute: async (args: { q: string }) => `found ${args.q}`,
};

/** Looks invoice 42 up (its arguments streamed in 6-character fragments), then answers in three chunks. */
function invoiceAgent(options: { chunkChars?: number } = {}) {
  const provider = scripted({
    chunkChars: options.chunkChars,
    replies: (request) =>
      request.messages.some((m) => m.role === 'tool')
        ? { chunks: ['Invoice ', '42 ', 'is paid.'], usage: { input: 20, output: 6 } }
        : { toolCalls: [{ id: 't1', name: 'lookup', args: { q: 'invoice 42' } }], usage: { input: 10, output: 4 } },
  });
  return Agent.create({ provider, model: 'm1', id: 'helper' }).tool(lookup).build();
}

const unregister: (() => void)[] = [];
afterEach(() => unregister.splice(0).forEach((stop) => stop()));

describe('Agent.stream()', () => {
  it('yields the tool call, its result, the answer chunk by chunk and the end, and answers as run() does', async () => {
    const agent = invoiceAgent();
    const stream = agent.stream('Is invoice 42 paid?');
    const parts = await drain(stream);
    expect(parts).toEqual([
      { type: 'tool_call', toolCallId: 't1', toolName: 'lookup', args: { q: 'invoice 42' }, member: AGENT, agentId: 'helper', route: '' },
      { type: 'tool_result', toolCallId: 't1', toolName: 'lookup', status: 'ok', result: 'found invoice 42', member: AGENT, agentId: 'helper', route: '' },
      text('Invoice ', AGENT),
      text('42 ', AGENT),
      text('is paid.', AGENT),
      { type: 'end', result: expect.objectContaining({ text: 'Invoice 42 is paid.' }) },
    ]);
    expect((await stream.result).text).toBe('Invoice 42 is paid.');
    expect((await agent.run('Is invoice 42 paid?')).text).toBe('Invoice 42 is paid.');
    // The three text parts are one reply.
    const callIds = new Set(parts.flatMap((p) => (p.type === 'text' ? [p.callId] : [])));
    expect(callIds.size).toBe(1);
  });

  it('reports every chunk to listeners, marks the calls streamed and gives llm_end the totals', async () => {
    const agent = invoiceAgent();
    const seen = collect(agent);
    await drain(agent.stream('Is invoice 42 paid?'));
    expect(seen.of('footprint.call.llm_start').map((p) => p.stream)).toEqual([true, true]);
    const chunks = seen.of('footprint.call.llm_chunk');
    expect(chunks.map(({ index, part }) => ({ index, part }))).toEqual([
      { index: 0, part: { type: 'tool_call', index: 0, id: 't1', name: 'lookup', argumentsDelta: '{"q":"invoice 42"}' } },
      { index: 0, part: { type: 'text', delta: 'Invoice ' } },
      { index: 1, part: { type: 'text', delta: '42 ' } },
      { index: 2, part: { type: 'text', delta: 'is paid.' } },
    ]);
    const starts = seen.of('footprint.call.llm_start').map((p) => p.callId);
    expect(chunks.map((c) => c.callId)).toEqual([starts[0], starts[1], starts[1], starts[1]]);
    const ends = seen.of('footprint.call.llm_end');
    expect(ends.map((e) => e.streamed)).toEqual([
      { firstChunkMs: chunks[0]!.atMs, chunks: 1, chunkGapsMs: [] },
      { firstChunkMs: chunks[1]!.atMs, chunks: 3, chunkGapsMs: [chunks[2]!.atMs - chunks[1]!.atMs, chunks[3]!.atMs - chunks[2]!.atMs] },
    ]);
    // Chunks come in order, each at or after the one before, none after its call ended.
    expect(chunks[2]!.atMs).toBeGreaterThanOrEqual(chunks[1]!.atMs);
    expect(chunks[3]!.atMs).toBeGreaterThanOrEqual(chunks[2]!.atMs);
    expect(ends[1]!.durationMs).toBeGreaterThanOrEqual(chunks[3]!.atMs);
    // Usage, stop reason and cost are the same as in a run().
    expect(ends.map((e) => [e.usage, e.stopReason])).toEqual([
      [{ input: 10, output: 4 }, 'tool_use'],
      [{ input: 20, output: 6 }, 'end_turn'],
    ]);
    expect(seen.of('footprint.agent.turn_end')[0]).toMatchObject({ outcome: 'ok', llmCalls: 2, tokens: { input: 30, output: 10 } });
  });

  it('keeps run() unstreamed: no chunk, llm_start.stream false, no streamed totals', async () => {
    const agent = invoiceAgent();
    const seen = collect(agent);
    expect((await agent.run('Is invoice 42 paid?')).text).toBe('Invoice 42 is paid.');
    expect(seen.of('footprint.call.llm_start').map((p) => p.stream)).toEqual([false, false]);
    expect(seen.of('footprint.call.llm_chunk')).toEqual([]);
    expect(seen.of('footprint.call.llm_end').map((e) => e.streamed)).toEqual([undefined, undefined]);
  });

  it('assembles a tool call from argument fragments before the tool runs', async () => {
    const agent = invoiceAgent({ chunkChars: 6 });
    const seen = collect(agent);
    const parts = await drain(agent.stream('Is invoice 42 paid?'));
    const firstCall = seen.of('footprint.call.llm_chunk').filter((c) => c.part.type === 'tool_call');
    expect(firstCall.map((c) => c.part)).toEqual([
      { type: 'tool_call', index: 0, id: 't1', name: 'lookup', argumentsDelta: '{"q":"' },
      { type: 'tool_call', index: 0, argumentsDelta: 'invoic' },
      { type: 'tool_call', index: 0, argumentsDelta: 'e 42"}' },
    ]);
    expect(seen.of('footprint.call.tool_start').map((p) => p.args)).toEqual([{ q: 'invoice 42' }]);
    expect(parts[0]).toMatchObject({ type: 'tool_call', args: { q: 'invoice 42' } });
    expect(parts[1]).toMatchObject({ type: 'tool_result', result: 'found invoice 42' });
    expect(textOf(parts)).toBe('Invoice 42 is paid.');
  });

  it('streams a provider that has only complete() as one chunk', async () => {
    const onlyComplete: LLMProvider = {
      name: 'custom',
      complete: async () => ({ content: 'Whole answer.', toolCalls: [], stopReason: 'end_turn', usage: { input: 3, output: 2 } }),
    };
    const agent = Agent.create({ provider: onlyComplete, model: 'm1', id: 'helper' }).build();
    const seen = collect(agent);
    const stream = agent.stream('hi');
    expect(await drain(stream)).toEqual([text('Whole answer.', AGENT), { type: 'end', result: expect.objectContaining({ text: 'Whole answer.' }) }]);
    expect(seen.of('footprint.call.llm_end').map((e) => [e.streamed?.chunks, e.usage])).toEqual([[1, { input: 3, output: 2 }]]);
  });

  it('fails the call with the typed error when the provider stream breaks mid-way; the chunks before reached the listener', async () => {
    const broken = new ProviderError({ provider: 'scripted', kind: 'malformed_response', message: 'connection reset mid-stream' });
    const { provider, log } = observed(scripted({ replies: [{ chunks: ['One ', 'two ', 'three'], error: broken, errorAfterChunks: 2 }] }));
    const agent = Agent.create({ provider, model: 'm1', id: 'helper' }).build();
    const seen = collect(agent);
    const stream = agent.stream('count');
    const parts: unknown[] = [];
    let thrown: unknown;
    try {
      for await (const part of stream) parts.push(part);
    } catch (error) {
      thrown = error;
    }
    expect(parts).toEqual([text('One ', AGENT), text('two ', AGENT)]);
    expect(thrown).toBeInstanceOf(RunFailedError);
    expect((thrown as RunFailedError).cause).toBe(broken);
    await expect(stream.result).rejects.toBe(thrown);
    expect(seen.of('footprint.call.llm_chunk').map((c) => c.part)).toEqual([
      { type: 'text', delta: 'One ' },
      { type: 'text', delta: 'two ' },
    ]);
    const [end] = seen.of('footprint.call.llm_end');
    const [first, second] = seen.of('footprint.call.llm_chunk');
    expect(end!.streamed).toEqual({ firstChunkMs: first!.atMs, chunks: 2, chunkGapsMs: [second!.atMs - first!.atMs] });
    expect(end!.error).toEqual({ type: 'malformed_response', name: 'ProviderError', ownText: true, message: 'ProviderError: connection reset mid-stream', status: undefined, retryable: false });
    // One attempt: nothing is retried once a chunk was handed out.
    expect(log.endings).toEqual(['threw']);
  });

  it('fails with a malformed_response ProviderError when the stream ends without its finish part', async () => {
    const truncated: LLMProvider = {
      name: 'custom',
      complete: () => Promise.reject(new Error('not used')),
      async *stream(): AsyncGenerator<LLMStreamPart> {
        yield { type: 'text', delta: 'half an ans' };
      },
    };
    const agent = Agent.create({ provider: truncated, model: 'm1', id: 'helper' }).build();
    const stream = agent.stream('hi');
    await expect(drain(stream)).rejects.toBeInstanceOf(RunFailedError);
    const error = (await stream.result.then(
      () => undefined,
      (e: unknown) => e,
    )) as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error.cause).toBeInstanceOf(ProviderError);
    expect((error.cause as ProviderError).kind).toBe('malformed_response');
    expect((error.cause as ProviderError).message).toBe('custom: malformed stream: the stream ended before its finish part');
  });

  it('refuses input that is not a message the way run() does, in the iteration and the result', async () => {
    const agent = invoiceAgent();
    const stream = agent.stream(42 as unknown as string);
    const refusal = new TypeError('stream() takes a string, { message: string } or a conversation (an array of messages)');
    await expect(stream.next()).rejects.toThrow(refusal);
    await expect(stream.result).rejects.toThrow(refusal);
  });

  it('hands instruments no chunk: they see the call start and end only', async () => {
    const seenByInstrument: EventType[] = [];
    unregister.push(
      registerInstrument({
        id: 'test.stream-watcher',
        start: ({ events }) => {
          events.subscribe((event) => seenByInstrument.push(event.type));
          return {};
        },
      }),
    );
    await drain(invoiceAgent().stream('Is invoice 42 paid?'));
    expect(seenByInstrument.filter((t) => t.startsWith('footprint.call.'))).toEqual([
      'footprint.call.llm_start',
      'footprint.call.llm_end',
      'footprint.call.tool_start',
      'footprint.call.tool_end',
      'footprint.call.llm_start',
      'footprint.call.llm_end',
    ]);
  });
});

describe('LLMCall.stream()', () => {
  it('streams its one reply, tagged with the LLM call', async () => {
    const call = LLMCall.create({ provider: scripted({ replies: [{ chunks: ['Short', ' summary.'] }] }), model: 'm1', id: 'summarize' })
      .system('Summarize.')
      .build();
    const stream = call.stream('A long text.');
    const member = { kind: 'llm_call', id: 'summarize' } as const;
    expect(await drain(stream)).toEqual([text('Short', member), text(' summary.', member), { type: 'end', result: expect.objectContaining({ text: 'Short summary.' }) }]);
    expect((await stream.result).text).toBe('Short summary.');
  });
});
