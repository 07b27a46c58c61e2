/**
 * A conversation in the trace: a 200-message thread trimmed by the agent's window, and the trace
 * says so (gen_ai.conversation.compacted on the chat span, footprint.conversation.compacted as a
 * span event); a store's own spans nest under the run span (its calls run inside the run's context);
 * gen_ai.conversation.id on the run's spans.
 */
import { trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, MemoryConversationStore, scripted, type ConversationStore, type LLMMessage, type LLMRequest } from '../../src/index.js';
import { startSdk, type Sdk } from '../support/sdk.js';

let sdk: Sdk;
beforeAll(() => {
  sdk = startSdk();
});
afterEach(() => sdk.reset());
afterAll(async () => {
  await sdk.shutdown();
});

/** 200 messages: 100 questions of 40 characters (10 estimated tokens) and their 40-character answers. */
function longThread(): LLMMessage[] {
  const thread: LLMMessage[] = [];
  for (let i = 0; i < 100; i++) {
    thread.push({ role: 'user', content: `question ${String(i).padStart(3, '0')} `.padEnd(40, 'q') });
    thread.push({ role: 'assistant', content: `answer ${String(i).padStart(3, '0')} `.padEnd(40, 'a') });
  }
  return thread;
}

async function seeded(conversationId: string): Promise<MemoryConversationStore> {
  const store = new MemoryConversationStore();
  await store.append(conversationId, { runId: 'seed', after: 0, messages: longThread() });
  return store;
}

function recordingAgent(window: { maxMessages?: number; maxTokens?: number }) {
  const requests: LLMRequest[] = [];
  const provider = scripted({ replies: (request) => (requests.push(request), { content: 'ok', usage: { input: 1, output: 1 } }) });
  return { agent: Agent.create({ provider, model: 'm', id: 'desk', window }).build(), requests };
}

function compactedEvents() {
  return sdk.spans().flatMap((span) => span.events.filter((e) => e.name === 'footprint.conversation.compacted').map((e) => ({ span: span.name, attributes: e.attributes })));
}

describe('the conversation window', () => {
  it('by messages: a 200-message thread sends the latest 50, and the chat span and an event say so', async () => {
    const { agent, requests } = recordingAgent({ maxMessages: 50 });
    const store = await seeded('long');
    const result = await agent.run('question 100', { conversationId: 'long', conversationStore: store });

    // 201 messages; the latest 50 start at an assistant message, so the window starts at the next user message.
    const sent = requests[0]!.messages;
    expect(sent).toHaveLength(49);
    expect(sent[0]).toEqual(longThread()[152]);
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'question 100' });
    expect(result.messages).toEqual([
      { role: 'user', content: 'question 100' },
      { role: 'assistant', content: 'ok' },
    ]);
    // The thread stays whole.
    expect((await store.load('long')).messages).toHaveLength(202);

    const chat = sdk.spans().find((s) => s.name === 'chat m')!;
    expect(chat.attributes['gen_ai.conversation.compacted']).toBe(true);
    expect(chat.attributes['gen_ai.conversation.id']).toBe('long');
    expect(compactedEvents()).toEqual([
      {
        span: 'CallLLM',
        attributes: {
          'footprint.member.id': 'desk',
          'footprint.member.kind': 'agent',
          'footprint.conversation.compacted.agent_id': 'desk',
          'footprint.conversation.compacted.turn_id': expect.stringMatching(/^turn_/),
          'footprint.conversation.compacted.iteration': 1,
          'footprint.conversation.compacted.call_id': chat.attributes['footprint.llm.call_id'],
          'footprint.conversation.compacted.max_messages': 50,
          'footprint.conversation.compacted.kept': 49,
          'footprint.conversation.compacted.dropped': 152,
          'footprint.conversation.compacted.estimated_tokens': 483,
        },
      },
    ]);
  });

  it('by estimated tokens: the latest messages that fit, from a user message on', async () => {
    const { agent, requests } = recordingAgent({ maxTokens: 105 });
    const store = await seeded('long');
    await agent.run('question 100', { conversationId: 'long', conversationStore: store });
    // 'question 100' is 3 tokens, each earlier message 10: ten more fit (103), and the tenth back is a user message.
    const sent = requests[0]!.messages;
    expect(sent).toHaveLength(11);
    expect(sent[0]).toEqual(longThread()[190]);
    expect(sdk.spans().find((s) => s.name === 'chat m')!.attributes['gen_ai.conversation.compacted']).toBe(true);
  });

  it('a thread within the window is sent whole, and nothing says compacted', async () => {
    const { agent, requests } = recordingAgent({ maxMessages: 500 });
    const store = await seeded('long');
    await agent.run('question 100', { conversationId: 'long', conversationStore: store });
    expect(requests[0]!.messages).toHaveLength(201);
    expect(sdk.spans().find((s) => s.name === 'chat m')!.attributes['gen_ai.conversation.compacted']).toBeUndefined();
    expect(compactedEvents()).toEqual([]);
  });
});

describe('a conversation store in the trace', () => {
  it("makes its spans under the run span: its calls run in the run's context", async () => {
    const memory = new MemoryConversationStore();
    const tracer = trace.getTracer('store-test');
    const traced: ConversationStore = {
      load: (id) => tracer.startActiveSpan('store load', async (span) => memory.load(id).finally(() => span.end())),
      append: (id, entry) => tracer.startActiveSpan('store append', async (span) => memory.append(id, entry).finally(() => span.end())),
    };
    const { agent } = recordingAgent({ maxMessages: 10 });
    await agent.run('hello', { conversationId: 'c-7', conversationStore: traced });
    const spans = sdk.spans();
    const root = spans.find((s) => s.parentSpanContext === undefined)!;
    const byName = (name: string) => spans.find((s) => s.name === name)!;
    expect([byName('store load').parentSpanContext?.spanId, byName('store append').parentSpanContext?.spanId]).toEqual([root.spanContext().spanId, root.spanContext().spanId]);
    expect(root.attributes['gen_ai.conversation.id']).toBe('c-7');
  });
});
