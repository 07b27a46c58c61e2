/**
 * Conversations: a run takes a conversation as well as a string, and a conversationId continues a
 * thread kept in a ConversationStore: the run loads it, its new messages are appended when it ends,
 * and the next run with that id sends them on. The store refuses a second append at one position,
 * takes a retried one once, and a failed append loses nothing (the error carries the result).
 */
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ConfigError,
  Conditional,
  Parallel,
  Sequence,
  isPaused,
  swarm,
  ConversationConflictError,
  ConversationStoreError,
  MemoryConversationStore,
  openaiCompatible,
  scripted,
  type ConversationStore,
  type LLMMessage,
  type LLMRequest,
  type Tool,
} from '../../../src/index.js';
import { refundAgent, refundToolRuns } from '../../fixtures/refundAgent.js';
import { echoAgent } from '../../support/compositions.js';

const lookup: Tool = {
  name: 'lookup',
  description: 'Looks an invoice up',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  execute: ({ id }: { id: string }) => `invoice ${id}: paid`,
};

/** An agent that looks the invoice of each question up, then answers; `requests` holds every request. */
function invoiceDesk() {
  const requests: LLMRequest[] = [];
  const provider = scripted({
    replies: (request) => {
      requests.push(request);
      const last = request.messages.at(-1)!;
      if (last.role === 'user') return { toolCalls: [{ id: `call-${requests.length}`, name: 'lookup', args: { id: String(requests.length) } }] };
      return { content: `answer ${requests.length}` };
    },
  });
  return { agent: Agent.create({ provider, model: 'm', id: 'desk' }).tool(lookup).build(), requests };
}

const turn = (question: string, call: string, id: string, result: string, answerText: string): LLMMessage[] => [
  { role: 'user', content: question },
  { role: 'assistant', content: '', toolCalls: [{ id: call, name: 'lookup', args: { id } }] },
  { role: 'tool', content: result, toolCallId: call },
  { role: 'assistant', content: answerText },
];

describe('a conversation by id', () => {
  it('three turns: the third request holds the first two turns, in order, with their tool calls and results', async () => {
    const { agent, requests } = invoiceDesk();
    const store = new MemoryConversationStore();
    const options = { conversationId: 'thread-1', conversationStore: store };
    const first = await agent.run('Is invoice 1 paid?', options);
    const second = await agent.run('And invoice 3?', options);
    const third = await agent.run('Thanks. Anything else open?', options);

    const turn1 = turn('Is invoice 1 paid?', 'call-1', '1', 'invoice 1: paid', 'answer 2');
    const turn2 = turn('And invoice 3?', 'call-3', '3', 'invoice 3: paid', 'answer 4');
    expect([first.text, second.text, third.text]).toEqual(['answer 2', 'answer 4', 'answer 6']);
    expect(first.messages).toEqual(turn1);
    expect(second.messages).toEqual(turn2);
    expect(requests[4]!.messages).toEqual([...turn1, ...turn2, { role: 'user', content: 'Thanks. Anything else open?' }]);
    expect(third.conversationId).toBe('thread-1');
    expect((await store.load('thread-1')).messages).toEqual([
      ...turn1,
      ...turn2,
      ...turn('Thanks. Anything else open?', 'call-5', '5', 'invoice 5: paid', 'answer 6'),
    ]);
  });

  it('takes a conversation as input; its messages are the first of the run', async () => {
    const { agent, requests } = invoiceDesk();
    const earlier = turn('Is invoice 1 paid?', 'call-0', '1', 'invoice 1: paid', 'It is.');
    const result = await agent.run([...earlier, { role: 'user', content: [{ type: 'text', text: 'And invoice 2?' }] }]);
    expect(requests[0]!.messages).toEqual([...earlier, { role: 'user', content: [{ type: 'text', text: 'And invoice 2?' }] }]);
    expect(result.messages.slice(0, 5)).toEqual([...earlier, { role: 'user', content: [{ type: 'text', text: 'And invoice 2?' }] }]);
    expect(result.text).toBe('answer 2');
  });

  it('a conversation of one message that is not a user message is sent as given, not as an empty user message', async () => {
    const { agent, requests } = invoiceDesk();
    const greeting: LLMMessage = { role: 'assistant', content: 'Hello! Which invoice is it about?' };
    const result = await agent.run([greeting]);
    expect(requests[0]!.messages).toEqual([greeting]);
    expect(result.messages).toEqual([greeting, { role: 'assistant', content: 'answer 1' }]);
  });

  it('refuses a malformed conversation with a TypeError naming the message, before any model call', async () => {
    const { agent, requests } = invoiceDesk();
    const bad = [{ role: 'tool', content: 'x' }] as LLMMessage[];
    await expect(agent.run(bad)).rejects.toThrow(new TypeError("run(): message 0 is a 'tool' message without the toolCallId it answers"));
    const image = [{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: 'AA==', url: 'https://x' }] }] as unknown as LLMMessage[];
    await expect(agent.run(image)).rejects.toThrow(new TypeError('run(): message 0 has a bad part 0: an image part has exactly one of data (base64) or url'));
    expect(requests).toHaveLength(0);
  });

  it('tool call arguments that cannot be copied (nested 10,000 deep, a function) are a TypeError naming the message: run() and stream() reject, never throw', async () => {
    const { agent, requests } = invoiceDesk();
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) deep = (deep.a = {}) as Record<string, unknown>;
    const withArgs = (args: Record<string, unknown>): LLMMessage[] => [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'lookup', args }] },
      { role: 'tool', toolCallId: 't1', content: 'r' },
    ];
    const expected = new TypeError('run(): message 1 has a tool call whose args cannot be copied (they hold a function or a symbol, or are nested too deep)');
    for (const args of [root, { id: () => '1' }]) {
      let ran: Promise<unknown> | undefined;
      expect(() => (ran = agent.run(withArgs(args)))).not.toThrow();
      await expect(ran).rejects.toThrow(expected);
      let stream: ReturnType<typeof agent.stream> | undefined;
      expect(() => (stream = agent.stream(withArgs(args)))).not.toThrow();
      await expect(stream!.result).rejects.toThrow(new TypeError(expected.message.replace('run()', 'stream()')));
    }
    expect(requests).toHaveLength(0);
  });

  it('an image part where the wire format takes none (an assistant message) is a ConfigError naming the provider', async () => {
    const agent = Agent.create({ provider: openaiCompatible({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', maxRetries: 0 }), model: 'm', id: 'eyes' }).build();
    const thread: LLMMessage[] = [
      { role: 'user', content: 'Look at this.' },
      { role: 'assistant', content: [{ type: 'image', mediaType: 'image/png', data: 'AA==' }] },
      { role: 'user', content: 'Well?' },
    ];
    const error = await agent.run(thread).catch((e: unknown) => e);
    expect(((error as Error).cause as ConfigError).message).toBe('openai: an image part is only sent in a user message, not in assistant messages');
  });

  it('a turn stopped at its iteration cap answers the tool calls it did not run: the thread never holds a call without its result', async () => {
    // Every model API refuses a conversation with an assistant tool call that no tool result answers
    // (Chat Completions, Messages): a thread stored so would fail every later run on it.
    const provider = scripted({ replies: (request) => (request.messages.at(-1)!.role === 'user' ? { toolCalls: [{ id: `call-${request.messages.length}`, name: 'lookup', args: { id: '7' } }] } : { content: 'It is paid.' }) });
    const agent = Agent.create({ provider, model: 'm', id: 'desk', maxIterations: 1 }).tool(lookup).build();
    const store = new MemoryConversationStore();
    const capped = await agent.run('Is INV-7 paid?', { conversationId: 'capped', conversationStore: store });
    expect([capped.stopReason, capped.text]).toEqual(['max_iterations', 'Stopped early (max iterations) at iteration 1.']);
    const stopped: LLMMessage[] = [
      { role: 'user', content: 'Is INV-7 paid?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'lookup', args: { id: '7' } }] },
      { role: 'tool', content: 'Tool call not run: the turn stopped at its iteration cap (maxIterations 1).', toolCallId: 'call-1' },
    ];
    expect(capped.messages).toEqual(stopped);
    expect((await store.load('capped')).messages).toEqual(stopped);
    await agent.run('And INV-8?', { conversationId: 'capped', conversationStore: store });
    expect(provider.calls[1]!.messages).toEqual([...stopped, { role: 'user', content: 'And INV-8?' }]);
  });
});

describe('a paused run in a conversation', () => {
  it('appends nothing while paused; its resume appends the whole turn when it ends', async () => {
    const store = new MemoryConversationStore();
    const paused = await refundAgent().run('Refund INV-7 please', { conversationId: 'refunds', conversationStore: store });
    if (!isPaused(paused)) throw new Error('expected a pause');
    expect((await store.load('refunds')).messages).toEqual([]);
    const done = await refundAgent().resume(JSON.parse(JSON.stringify(paused.paused.checkpoint)), 'yes', { conversationStore: store });
    expect([done.stopReason, done.conversationId]).toEqual(['answered', 'refunds']);
    // Each result counts its own model calls (the call before the pause, then the one after): added, each once.
    expect([paused.usage, done.usage]).toEqual([
      { input: 50, output: 12 },
      { input: 90, output: 15 },
    ]);
    const thread = (await store.load('refunds')).messages;
    expect(thread).toEqual(done.messages);
    expect([thread[0], thread.at(-1)!.role, thread.at(-1)!.content]).toEqual([{ role: 'user', content: 'Refund INV-7 please' }, 'assistant', done.text]);
  });

  it('a run on the conversation while one is paused moves the thread on: the resume does its work, then its append is a conflict that keeps its result', async () => {
    const store = new MemoryConversationStore();
    const paused = await refundAgent().run('Refund INV-7 please', { conversationId: 'refunds', conversationStore: store });
    if (!isPaused(paused)) throw new Error('expected a pause');
    // The user writes again before anyone approves: that run does not see the paused turn, and appends first.
    const meanwhile = await invoiceDesk().agent.run('Hello? Anyone there?', { conversationId: 'refunds', conversationStore: store });
    expect((await store.load('refunds')).messages).toEqual(meanwhile.messages);

    const runsBefore = refundToolRuns;
    const error = await refundAgent()
      .resume(paused.paused.checkpoint, 'yes', { conversationStore: store })
      .catch((e: unknown) => e);
    // The refund ran (its tool again from its start, the answer given), and only then did the append fail.
    expect(refundToolRuns).toBe(runsBefore + 1);
    expect(error).toBeInstanceOf(ConversationConflictError);
    expect((error as Error).message).toBe(
      `conversation "refunds": cannot append at position 0: another run appended there (the thread now has ${meanwhile.messages.length} messages); load it again`,
    );
    const kept = (error as ConversationConflictError).result!;
    expect([kept.stopReason, kept.messages[0], kept.text]).toEqual(['answered', { role: 'user', content: 'Refund INV-7 please' }, 'Done: invoice INV-7: $40 paid | refunded $40']);
    expect((await store.load('refunds')).messages).toEqual(meanwhile.messages);
  });
});

describe('what compositions pass on', () => {
  const conversation: LLMMessage[] = [
    { role: 'user', content: 'Is invoice 1 paid?' },
    { role: 'assistant', content: 'It is.' },
    { role: 'user', content: 'And invoice 2?' },
  ];

  it("Sequence: the first step gets the conversation, the next the step before's output", async () => {
    const [first, second] = [echoAgent('first'), echoAgent('second')];
    const pipe = Sequence.create({ id: 'pipe' }).step('first', first.agent).step('second', second.agent).build();
    const result = await pipe.run(conversation);
    expect(first.provider.calls[0]!.messages).toEqual(conversation);
    expect(second.provider.calls[0]!.messages).toEqual([{ role: 'user', content: 'first(And invoice 2?)' }]);
    expect([result.text, result.answeredBy?.path]).toEqual(['second(first(And invoice 2?))', 'sequence:pipe/agent:second']);
  });

  it("swarm: the first agent gets the conversation; the next the conversation and the first agent's reply", async () => {
    const [triage, billing] = [echoAgent('triage'), echoAgent('billing')];
    const desk = swarm({
      id: 'desk',
      agents: [{ id: 'triage', runner: triage.agent }, { id: 'billing', runner: billing.agent }],
      pick: ({ lastAgent }) => (lastAgent === undefined ? 'triage' : lastAgent === 'triage' ? 'billing' : undefined),
    });
    const result = await desk.run(conversation);
    expect(triage.provider.calls[0]!.messages).toEqual(conversation);
    expect(billing.provider.calls[0]!.messages).toEqual([...conversation, { role: 'user', content: 'Agent "triage" replied:\ntriage(And invoice 2?)' }]);
    expect(result.messages).toEqual([...conversation, { role: 'assistant', content: result.text }]);
  });

  it('Parallel and Conditional: every member that gets the input gets the conversation', async () => {
    const [a, b, c] = [echoAgent('a'), echoAgent('b'), echoAgent('c')];
    await Parallel.create({ id: 'both' }).branch('a', a.agent).branch('b', b.agent).merge((results) => results.map((r) => r.id).join(',')).build().run(conversation);
    await Conditional.create({ id: 'pick' }).when('c', () => true, c.agent).otherwise('a2', echoAgent('a2').agent).build().run(conversation);
    expect([a.provider.calls[0]!.messages, b.provider.calls[0]!.messages, c.provider.calls[0]!.messages]).toEqual([conversation, conversation, conversation]);
  });
});

describe('MemoryConversationStore', () => {
  const m = (content: string): LLMMessage => ({ role: 'user', content });

  it('appends at the position loaded, takes a retry of the same run once, and refuses another run at that position', async () => {
    const store = new MemoryConversationStore();
    await store.append('c', { runId: 'r1', after: 0, messages: [m('a')] });
    await store.append('c', { runId: 'r1', after: 0, messages: [m('a')] });
    const error = await store.append('c', { runId: 'r2', after: 0, messages: [m('b')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversationConflictError);
    expect([(error as ConversationConflictError).code, (error as Error).message]).toEqual([
      'conflict',
      'conversation "c": cannot append at position 0: another run appended there (the thread now has 1 messages); load it again',
    ]);
    expect((await store.load('c')).messages).toEqual([m('a')]);
    expect((await store.load('unknown')).messages).toEqual([]);
  });

  it('a position past the end of the thread is refused as such, not as another run having written there', async () => {
    // A paused run resumed in another process without its conversationStore appends here at the position its thread had.
    const store = new MemoryConversationStore();
    await store.append('c', { runId: 'r1', after: 0, messages: [m('a')] });
    const error = await store.append('c', { runId: 'r2', after: 4, messages: [m('b')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversationConflictError);
    expect((error as Error).message).toBe('conversation "c": cannot append at position 4: the thread holds 1 messages, not the 4 the run loaded; load it again');
    expect((await store.load('c')).messages).toEqual([m('a')]);
  });

  it('keeps copies: changing what was appended or loaded does not change the thread', async () => {
    const store = new MemoryConversationStore();
    const given = [m('a')];
    await store.append('c', { runId: 'r1', after: 0, messages: given });
    (given[0] as { content: string }).content = 'changed';
    const loaded = await store.load('c');
    (loaded.messages[0] as { content: string }).content = 'changed too';
    expect((await store.load('c')).messages).toEqual([m('a')]);
  });
});

describe('a conversation store that fails', () => {
  it('at the end of a run: run() rejects with ConversationStoreError holding the whole result; nothing is lost', async () => {
    const { agent } = invoiceDesk();
    const memory = new MemoryConversationStore();
    const failing: ConversationStore = { load: (id) => memory.load(id), append: () => Promise.reject(new Error('connection reset')) };
    const error = await agent.run('Is invoice 1 paid?', { conversationId: 'c', conversationStore: failing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversationStoreError);
    const failure = error as ConversationStoreError;
    expect([failure.code, failure.message]).toEqual([
      'unavailable',
      `conversation "c": the conversation store failed to append run ${failure.result!.runId}'s messages (Error: connection reset)`,
    ]);
    expect(failure.result!.messages).toEqual(turn('Is invoice 1 paid?', 'call-1', '1', 'invoice 1: paid', 'answer 2'));
    // The app appends again (idempotent per run), and the thread holds the turn once.
    await memory.append('c', { runId: failure.result!.runId, after: 0, messages: failure.result!.messages });
    await memory.append('c', { runId: failure.result!.runId, after: 0, messages: failure.result!.messages });
    expect((await memory.load('c')).messages).toHaveLength(4);
  });

  it('at the load: the run rejects with ConversationStoreError and makes no model call', async () => {
    const { agent, requests } = invoiceDesk();
    const failing: ConversationStore = { load: () => Promise.reject(new Error('down')), append: () => Promise.resolve() };
    const error = await agent.run('x', { conversationId: 'c', conversationStore: failing }).catch((e: unknown) => e);
    expect([(error as ConversationStoreError).name, (error as ConversationStoreError).code, (error as Error).message]).toEqual([
      'ConversationStoreError',
      'unavailable',
      'conversation "c": the conversation store failed to load it (Error: down)',
    ]);
    expect(requests).toHaveLength(0);
  });

  it('at the load, messages that are no messages: ConversationStoreError malformed naming the message, no model call', async () => {
    const { agent, requests } = invoiceDesk();
    const loading = (messages: unknown[]): ConversationStore => ({ load: async () => ({ messages: messages as LLMMessage[] }), append: () => Promise.resolve() });
    const cases: [unknown[], string][] = [
      [[null], 'message 0 is not an object'],
      [[{ role: 'user', content: 'hi' }, { role: 'system', content: 'x' }], `message 1 has role "system"; a role is 'user', 'assistant' or 'tool'`],
      [[{ role: 'user', content: 5 }], 'message 0 has no content (a string, or an array of text and image parts)'],
      [[{ role: 'assistant', content: '', toolCalls: [{ id: 1, name: null, args: null }] }], 'message 0 has a tool call without a string id, a string name and an args object'],
    ];
    for (const [messages, problem] of cases) {
      const error = await agent.run('x', { conversationId: 'c', conversationStore: loading(messages) }).catch((e: unknown) => e);
      expect([(error as ConversationStoreError).name, (error as ConversationStoreError).code, (error as Error).message]).toEqual([
        'ConversationStoreError',
        'malformed',
        `conversation "c": the conversation store's load gave a malformed thread: ${problem}`,
      ]);
    }
    expect(requests).toHaveLength(0);
  });

  it('a store without load() and append() is a ConfigError at the call', async () => {
    const { agent } = invoiceDesk();
    const error = await agent.run('x', { conversationId: 'c', conversationStore: {} as ConversationStore }).catch((e: unknown) => e);
    expect([(error as ConfigError).field, (error as Error).message]).toEqual([
      'conversationStore',
      'agent "desk": run(): conversationStore must have load() and append() (a ConversationStore)',
    ]);
  });
});
