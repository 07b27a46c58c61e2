/**
 * The chat span of a streamed call, from a real agent streamed through the real SDK: it says
 * gen_ai.request.stream (true, and only when the call streamed, as the conventions set it) and
 * gen_ai.response.time_to_first_chunk (seconds, the first chunk's atMs), carries no event and no
 * attribute per chunk, and under content capture holds the same output message a run() of the same
 * reply gives, assembled once. A call cut off mid-stream keeps its time to first chunk on its failed span.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, ProviderError, registerInstrument, RunFailedError, scripted, type LLMProvider, type ScriptedReply } from '../../src/index.js';
import { tracingInstrument } from '../../src/otel/index.js';
import { startSdk } from '../support/sdk.js';
import { drain, textOf } from '../support/streams.js';

const sdk = startSdk({ tracing: false });
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const lookup = {
  name: 'lookup',
  description: 'Look an invoice up',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  execute: () => ({ paid: true }),
};

/** A tool call streamed in argument fragments, then an answer in five chunks. */
function replies(): ScriptedReply[] {
  return [
    { toolCalls: [{ id: 't1', name: 'lookup', args: { q: 'invoice 42' } }], usage: { input: 10, output: 4 } },
    { chunks: ['Invoice ', '42 ', 'is ', 'paid', '.'], usage: { input: 20, output: 6 } },
  ];
}

function agentOn(provider: LLMProvider) {
  return Agent.create({ provider, model: 'm1', id: 'helper' }).tool(lookup).build();
}

/** Runs with the tracing instrument (content captured or not) and returns the chat spans in start order. */
async function traced<T>(capture: boolean, work: () => Promise<T>) {
  const unregister = registerInstrument(tracingInstrument({ captureContent: capture }));
  try {
    const result = await work();
    const chats = sdk
      .spans()
      .filter((span) => span.name === 'chat m1')
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    return { result, chats, names: sdk.spans().map((span) => span.name).sort() };
  } finally {
    unregister();
    sdk.reset();
  }
}

/** The attributes a chat span of this agent has whether it streams or not (ids left out). */
function withoutIds(attributes: Record<string, unknown>) {
  const { 'footprint.llm.call_id': _callId, 'footprint.lineage.part.producers': _producers, 'footprint.lineage.shared.span_id': _sharedWith, ...rest } = attributes;
  return rest;
}

describe('a streamed chat span', () => {
  it('says it streamed and when its first chunk came, and is otherwise the span run() gives', async () => {
    const streamedAgent = agentOn(scripted({ name: 'openai', chunkChars: 6, chunkDelayMs: 2, replies: replies() }));
    const firstChunks: number[] = [];
    streamedAgent.on('footprint.call.llm_chunk', (event) => {
      if (event.payload.index === 0) firstChunks.push(event.payload.atMs);
    });
    const streamed = await traced(false, async () => textOf(await drain(streamedAgent.stream('Is invoice 42 paid?'))));
    const plain = await traced(false, () => agentOn(scripted({ name: 'openai', replies: replies() })).run('Is invoice 42 paid?'));

    expect(streamed.result).toBe('Invoice 42 is paid.');
    expect(plain.result.text).toBe('Invoice 42 is paid.');
    // The same spans, by name, in both: no span per chunk.
    expect(streamed.names).toEqual(plain.names);
    expect(streamed.chats.map((span) => withoutIds(span.attributes))).toEqual(
      plain.chats.map((span, i) => ({
        ...withoutIds(span.attributes),
        'gen_ai.request.stream': true,
        'gen_ai.response.time_to_first_chunk': firstChunks[i]! / 1000,
      })),
    );
    // No span event per chunk (or at all: neither call was judged).
    expect(streamed.chats.map((span) => span.events.length)).toEqual([0, 0]);
    expect(plain.chats.map((span) => [span.attributes['gen_ai.request.stream'], span.attributes['gen_ai.response.time_to_first_chunk']])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  it('under content capture holds the output message run() gives, assembled once at the end', async () => {
    const streamed = await traced(true, async () => drain(agentOn(scripted({ name: 'openai', chunkChars: 3, replies: replies() })).stream('Is invoice 42 paid?')));
    const plain = await traced(true, () => agentOn(scripted({ name: 'openai', replies: replies() })).run('Is invoice 42 paid?'));
    const output = (chats: typeof plain.chats) => chats.map((span) => JSON.parse(String(span.attributes['gen_ai.output.messages'])));
    expect(output(streamed.chats)).toEqual(output(plain.chats));
    expect(output(streamed.chats)[1]).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'Invoice 42 is paid.' }], finish_reason: 'stop' }]);
  });

  it('keeps the time to first chunk of a call cut off mid-stream on its failed span', async () => {
    const broken = new ProviderError({ provider: 'openai', kind: 'malformed_response', message: 'connection reset mid-stream' });
    const provider = scripted({ name: 'openai', replies: [{ chunks: ['One ', 'two ', 'three'], error: broken, errorAfterChunks: 2 }] });
    const agent = Agent.create({ provider, model: 'm1', id: 'helper' }).build();
    const firstChunks: number[] = [];
    agent.on('footprint.call.llm_chunk', (event) => {
      if (event.payload.index === 0) firstChunks.push(event.payload.atMs);
    });
    const { result, chats } = await traced(false, async () => drain(agent.stream('count')).catch((error: unknown) => error));
    expect(result).toBeInstanceOf(RunFailedError);
    expect(chats.map((span) => [span.status.code, span.attributes['error.type'], span.attributes['gen_ai.request.stream'], span.attributes['gen_ai.response.time_to_first_chunk']])).toEqual([
      [2, 'malformed_response', true, firstChunks[0]! / 1000],
    ]);
  });
});
