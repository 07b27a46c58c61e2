/**
 * A tool call's signature (ToolCall.signature) goes back to the provider that gave it. Gemini 3
 * returns a `thoughtSignature` on the first functionCall part of a reply and refuses (400
 * INVALID_ARGUMENT) a request whose function calls of the current turn come back without theirs; its
 * OpenAI-compatible endpoint carries the same signature as `extra_content.google.thought_signature`.
 * A wire server here behaves as Gemini 3 does, byte for byte: a tool-calling turn completes only when
 * the signature is sent back on its part, through complete() and stream(), across a pause and a
 * JSON checkpoint, and the conversation keeps it. Telemetry never records it, even with content
 * capture on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, gemini, isPaused, MemoryConversationStore, openaiCompatible, type LLMProvider, type RunStreamPart, type ToolCall } from '../../../src/index.js';
import { startSdk, type Sdk } from '../../support/sdk.js';
import { openaiUsage } from './openaiWire.js';
import { wireServerPerTest } from './perTest.js';
import { sse } from './streaming.js';
import { geminiChunk, geminiUsage } from './targets.js';
import { sendJson, writeBody, type SeenRequest } from './wireServer.js';
import type { ServerResponse } from 'node:http';

const serve = wireServerPerTest();
let sdk: Sdk;
beforeAll(() => {
  // Content capture on for the whole file: the one setting under which message content reaches spans.
  sdk = startSdk({ tracing: { captureContent: true } });
});
afterEach(() => sdk.reset());
afterAll(async () => {
  await sdk.shutdown();
});

const SIGNATURE = 'CiQBjz1rX0ilumvPg6k0sMMUtISoQCLJv2bPJ7Vv9r+Xw0o=';
const MODEL = 'gemini-3-flash-preview';
/** Gemini 3's answer to a request whose current function call lost its signature. */
const MISSING = {
  error: {
    code: 400,
    message: 'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.',
    status: 'INVALID_ARGUMENT',
  },
};

/** Two parallel calls, as Gemini 3 gives them: the signature on the first functionCall part only. */
const CALLS = [
  { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE },
  { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
];
const ANSWER = 'Paris 18 °C, Rome 24 °C.';

/** The model turn of a follow-up request, as it must come back: each call's part as it was given. */
const MODEL_TURN = { role: 'model', parts: CALLS };

/** Gemini 3: the first request gets the calls; a follow-up gets the answer only if its model turn kept the signature. */
function gemini3(stream: boolean) {
  return (request: SeenRequest, res: ServerResponse, index: number) => {
    const usage = geminiUsage({ prompt: 40, candidates: 12 });
    if (index > 0 && JSON.stringify((request.json as { contents: unknown[] }).contents[1]) !== JSON.stringify(MODEL_TURN)) return sendJson(res, 400, MISSING);
    const reply = index === 0 ? geminiChunk(CALLS, 'STOP', usage) : geminiChunk([{ text: ANSWER }], 'STOP', usage);
    if (stream) void writeBody(res, [sse(reply)]);
    else sendJson(res, 200, reply);
  };
}

function weatherAgent(provider: LLMProvider) {
  return Agent.create({ provider, model: MODEL, id: 'weather' })
    .tool({
      name: 'get_weather',
      description: 'Current weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }: { city: string }) => ({ celsius: city === 'Paris' ? 18 : 24 }),
    })
    .build();
}

/** The assistant message's calls the conversation holds, ids left out (Gemini gives none: the adapter names them). */
function callsKept(messages: readonly { role: string; toolCalls?: ToolCall[] }[]) {
  return messages.flatMap((message) => (message.role === 'assistant' && message.toolCalls ? [message.toolCalls.map(({ id: _id, ...call }) => call)] : []));
}
const KEPT = [[{ name: 'get_weather', args: { city: 'Paris' }, signature: SIGNATURE }, { name: 'get_weather', args: { city: 'Rome' } }]];

describe('gemini: a thoughtSignature goes back on its functionCall part', () => {
  it('complete(): the turn answers, the run and its conversation keep the signature on the first call only', async () => {
    const server = await serve(gemini3(false));
    const conversationStore = new MemoryConversationStore();
    const result = await weatherAgent(gemini({ baseURL: server.url })).run('Weather in Paris and Rome?', { conversationId: 'thread-1', conversationStore });
    expect({ text: result.text, stopReason: result.stopReason, requests: server.requests.length }).toEqual({ text: ANSWER, stopReason: 'answered', requests: 2 });
    expect(callsKept(result.messages)).toEqual(KEPT);
    expect(callsKept((await conversationStore.load('thread-1')).messages)).toEqual(KEPT);
  });

  it('stream(): the streamed calls keep their signature too', async () => {
    const server = await serve(gemini3(true));
    const parts: RunStreamPart[] = [];
    const stream = weatherAgent(gemini({ baseURL: server.url })).stream('Weather in Paris and Rome?');
    for await (const part of stream) parts.push(part);
    const result = await stream.result;
    expect({ text: result.text, requests: server.requests.length }).toEqual({ text: ANSWER, requests: 2 });
    expect(callsKept(result.messages)).toEqual(KEPT);
  });

  it('a conversation continued later sends the stored signature back as it was stored', async () => {
    const server = await serve(gemini3(false));
    const conversationStore = new MemoryConversationStore();
    const agent = weatherAgent(gemini({ baseURL: server.url }));
    await agent.run('Weather in Paris and Rome?', { conversationId: 'thread-2', conversationStore });
    await agent.run('Thanks.', { conversationId: 'thread-2', conversationStore });
    expect(server.requests).toHaveLength(3);
    expect((server.requests[2]!.json as { contents: unknown[] }).contents[1]).toEqual(MODEL_TURN);
  });

  it('a run that pauses in a tool resumes from its JSON checkpoint with the signature', async () => {
    const server = await serve(gemini3(false));
    const agent = Agent.create({ provider: gemini({ baseURL: server.url }), model: MODEL, id: 'weather' })
      .tool({
        name: 'get_weather',
        description: 'Current weather',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execute: async ({ city }: { city: string }, ctx) => (city === 'Rome' ? { celsius: Number(await ctx.pause('Rome?')) } : { celsius: 18 }),
      })
      .build();
    const paused = await agent.run('Weather in Paris and Rome?');
    if (!isPaused(paused)) throw new Error('expected the run to pause');
    const resumed = await agent.resume(JSON.parse(JSON.stringify(paused.paused.checkpoint)), '24');
    expect({ text: resumed.text, requests: server.requests.length }).toEqual({ text: ANSWER, requests: 2 });
  });

  it('the chat spans record the calls without their signature (content capture on)', async () => {
    const server = await serve(gemini3(false));
    await weatherAgent(gemini({ baseURL: server.url })).run('Weather in Paris and Rome?');
    const chats = sdk.spans().filter((span) => span.name === `chat ${MODEL}`);
    expect(chats).toHaveLength(2);
    const recorded = chats.flatMap((span) => [span.attributes['gen_ai.input.messages'], span.attributes['gen_ai.output.messages']]);
    expect(recorded.every((value) => typeof value === 'string')).toBe(true);
    expect(recorded.filter((value) => String(value).includes(SIGNATURE))).toEqual([]);
    const input = JSON.parse(String(chats[1]!.attributes['gen_ai.input.messages'])) as { role: string; parts: { type: string; name?: string; arguments?: unknown }[] }[];
    expect(input.find((message) => message.role === 'assistant')!.parts.map(({ type, name, arguments: args }) => ({ type, name, args }))).toEqual([
      { type: 'tool_call', name: 'get_weather', args: { city: 'Paris' } },
      { type: 'tool_call', name: 'get_weather', args: { city: 'Rome' } },
    ]);
  });
});

describe("openaiCompatible: Gemini's OpenAI-compatible endpoint carries it as extra_content", () => {
  const EXTRA = { google: { thought_signature: SIGNATURE } };
  const completion = (message: Record<string, unknown>, finish: string) => ({
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model: MODEL,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage: openaiUsage({ prompt: 40, completion: 12 }),
  });
  const CALL = { id: 'function-call-1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: EXTRA };
  /** The assistant message of a follow-up must hold the call as it was given. */
  function endpoint(stream: boolean) {
    return (request: SeenRequest, res: ServerResponse, index: number) => {
      const sent = (request.json as { messages: Record<string, unknown>[] }).messages;
      if (index > 0 && JSON.stringify(sent[1]) !== JSON.stringify({ role: 'assistant', content: null, tool_calls: [CALL] })) return sendJson(res, 400, [MISSING]);
      if (!stream) return sendJson(res, 200, index === 0 ? completion({ content: null, tool_calls: [CALL] }, 'tool_calls') : completion({ content: 'Paris 18 °C.' }, 'stop'));
      const chunk = (delta: unknown, finish: string | null) => sse({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] });
      const first = [chunk({ role: 'assistant', tool_calls: [{ index: 0, ...CALL }] }, null), chunk({}, 'tool_calls'), 'data: [DONE]\n\n'];
      void writeBody(res, index === 0 ? first : [chunk({ role: 'assistant', content: 'Paris 18 °C.' }, null), chunk({}, 'stop'), 'data: [DONE]\n\n']);
    };
  }

  for (const stream of [false, true]) {
    it(`${stream ? 'stream()' : 'complete()'}: the signature is read from extra_content and sent back there`, async () => {
      const server = await serve(endpoint(stream));
      const agent = weatherAgent(openaiCompatible({ baseURL: server.url, name: 'gemini' }));
      const result = stream ? await agent.stream('Weather in Paris?').result : await agent.run('Weather in Paris?');
      expect({ text: result.text, requests: server.requests.length }).toEqual({ text: 'Paris 18 °C.', requests: 2 });
      expect(callsKept(result.messages)).toEqual([[{ name: 'get_weather', args: { city: 'Paris' }, signature: SIGNATURE }]]);
    });
  }
});

describe('a signature goes back to Gemini only', () => {
  it('a Gemini turn that falls back to a Chat Completions model sends that model the calls without extra_content', async () => {
    const google = await serve((_req, res, index) => (index === 0 ? sendJson(res, 200, geminiChunk([CALLS[0]], 'STOP', geminiUsage({ prompt: 10, candidates: 5 }))) : sendJson(res, 503, { error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } })));
    const openai = await serve((_req, res) =>
      sendJson(res, 200, { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }], usage: openaiUsage({ prompt: 40, completion: 8 }) }),
    );
    const agent = Agent.create({
      provider: gemini({ baseURL: google.url, maxRetries: 0 }),
      model: MODEL,
      id: 'weather',
      fallbacks: [{ provider: openaiCompatible({ baseURL: openai.url }), model: 'gpt-4o-mini' }],
    })
      .tool({ name: 'get_weather', description: 'Current weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, execute: () => ({ celsius: 18 }) })
      .build();
    expect((await agent.run('Weather in Paris?')).text).toBe(ANSWER);
    const assistant = (openai.requests[0]!.json as { messages: Record<string, unknown>[] }).messages.find((message) => message.role === 'assistant')!;
    expect(assistant.tool_calls).toEqual([{ id: expect.stringMatching(/^gemini_call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
  });
});

describe('a signature that is not a string', () => {
  it("is a malformed reply from a custom provider, typed, naming the field", async () => {
    const provider: LLMProvider = {
      name: 'custom',
      complete: async () => ({ content: '', toolCalls: [{ id: 'c1', name: 'get_weather', args: { city: 'Paris' }, signature: 42 as unknown as string }], stopReason: 'tool_use' }),
    };
    await expect(weatherAgent(provider).run('Weather in Paris?')).rejects.toMatchObject({
      name: 'RunFailedError',
      cause: { kind: 'malformed_response', message: 'custom: malformed response: toolCalls[0].signature is a number, not a string' },
    });
  });

  it('is refused in a run input, before any model call', async () => {
    const history = [
      { role: 'user' as const, content: 'Weather in Paris?' },
      { role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'get_weather', args: { city: 'Paris' }, signature: 7 as unknown as string }] },
      { role: 'tool' as const, toolCallId: 'c1', content: '{"celsius":18}' },
    ];
    const provider: LLMProvider = { name: 'custom', complete: async () => ({ content: 'fine', toolCalls: [], stopReason: 'end_turn' }) };
    await expect(weatherAgent(provider).run(history)).rejects.toThrow('has a tool call whose signature is not a string');
  });
});
