/**
 * A run that continues a stored conversation links to what produced each loaded message in the
 * earlier run's trace (issue #36, docs/lineage.md): its chat span to the earlier run's execute_tool
 * spans (tool results) and to its answering chat span, to the earlier run's span for that run's input.
 * Each run is traced by its own tracer provider (two processes' worth: two traces, two exporters);
 * the store is the in-memory one, and a real PostgreSQL 15. A store that keeps no producers gives
 * the earlier run's span for every loaded message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ConversationStoreError, MemoryConversationStore, registerInstrument, tracingInstrument, type ConversationStore, type StoredConversation } from '../../src/index.js';
import { PostgresConversationStore } from '../../src/postgres/index.js';
import { twoToolAgent } from '../support/agents.js';
import { lineageOf } from '../support/lineageLinks.js';
import { describeWithPostgres, startPostgres } from '../support/postgres.js';

const server = await startPostgres();
let unregister = () => {};
afterEach(() => unregister());

/** Runs `question` traced by a tracer provider of its own; its finished spans. */
async function tracedAlone(run: () => Promise<unknown>) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  unregister = registerInstrument(tracingInstrument({ tracerProvider: provider }));
  try {
    await run();
  } finally {
    unregister();
    unregister = () => {};
  }
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return spans;
}

/**
 * Run 1: lookup + weather (call 1), lookup (call 2), the answer (call 3). Run 2 is sent the whole
 * thread and answers at once: "hi" (2 chars) is run 1's input, the tool results ("found invoice 42",
 * "sunny", "found invoice 42") its tool calls', the newest answer ("Invoice 42 is paid.", 19 chars)
 * its call 3's; older answers are reachable through call 3's own links.
 */
const CONTINUED = [
  'INFORMED_BY conversation messages[0] 2c/1t run#1 → run invoke_agent Helper',
  'INFORMED_BY conversation messages[2] 16c/4t call#1:c1 → execute_tool lookup c1',
  'INFORMED_BY conversation messages[3] 5c/2t call#1:c2 → execute_tool weather c2',
  'INFORMED_BY conversation messages[5] 16c/4t call#2:c3 → execute_tool lookup c3',
  'INFORMED_BY conversation messages[6] 19c/5t call#3 → chat m1 call#3',
];

async function continueConversation(store: ConversationStore, conversationId: string) {
  const helper = twoToolAgent();
  const first = await tracedAlone(() => helper.run('hi', { conversationId, conversationStore: store }));
  const second = await tracedAlone(() => helper.run('and the weather?', { conversationId, conversationStore: store }));
  const roots = [first, second].map((spans) => spans.find((span) => span.parentSpanContext === undefined)!.spanContext().traceId);
  expect(new Set(roots).size).toBe(2);
  return { first, second, lineage: lineageOf([...first, ...second]) };
}

function expectLinksIntoTheEarlierTrace({ first, second, lineage }: Awaited<ReturnType<typeof continueConversation>>) {
  expect(lineage['chat m1 call#4']).toEqual(CONTINUED);
  expect(lineage['run invoke_agent Helper (2)']).toEqual(['answer call#4 → chat m1 call#4']);
  // Every link of the continuing call points into the first run's trace.
  const chat = second.find((span) => span.name === 'chat m1')!;
  expect(new Set(chat.links.map((link) => link.context.traceId))).toEqual(new Set([first[0]!.spanContext().traceId]));
}

describe('a run that continues a conversation in memory', () => {
  it("links to the earlier run's chat and execute_tool spans, in the earlier trace", async () => {
    expectLinksIntoTheEarlierTrace(await continueConversation(new MemoryConversationStore(), 'links-memory'));
  });

  it('a store that keeps no producers: every loaded message links to the earlier run span', async () => {
    const inner = new MemoryConversationStore();
    const forgetful: ConversationStore = {
      load: async (id): Promise<StoredConversation> => {
        const loaded = await inner.load(id);
        return { messages: loaded.messages, runs: loaded.runs!.map(({ runId, messages, carry }) => ({ runId, messages, carry })) };
      },
      append: (id, entry) => inner.append(id, entry),
    };
    const { lineage } = await continueConversation(forgetful, 'links-forgetful');
    // 2 + 46 + 16 + 5 + 24 + 16 + 19 chars; 1 + 12 + 4 + 2 + 6 + 4 + 5 tokens (each part's own ceil(chars / 4)).
    expect(lineage['chat m1 call#4']).toEqual(['INFORMED_BY conversation messages[0,1,2,3,4,5,6] 128c/34t run#1 → run invoke_agent Helper']);
  });
});

describe('producers that are not one id (or null) per message', () => {
  it('the in-memory store keeps the entry without them', async () => {
    const store = new MemoryConversationStore();
    await store.append('odd', { runId: 'r1', after: 0, messages: [{ role: 'user', content: 'hi' }], producers: ['call_1', 'call_2'] });
    await store.append('odd', { runId: 'r2', after: 1, messages: [{ role: 'assistant', content: 'yo' }], producers: [7 as unknown as string] });
    expect((await store.load('odd')).runs).toEqual([
      { runId: 'r1', messages: 1, carry: {} },
      { runId: 'r2', messages: 1, carry: {} },
    ]);
  });
});

describeWithPostgres('a run that continues a conversation in PostgreSQL', server, (s) => {
  it('refuses an append whose producers are not one per message, writing nothing', async () => {
    const store = new PostgresConversationStore({ pool: s.pool() });
    await store.ensureSchema();
    const appending = store.append('odd-pg', { runId: 'r1', after: 0, messages: [{ role: 'user', content: 'hi' }], producers: ['call_1', 'call_2'] });
    await expect(appending).rejects.toEqual(new ConversationStoreError('conversation odd-pg: the producers of run r1 must be one id (or null) per message', 'malformed'));
    expect(await store.load('odd-pg')).toEqual({ messages: [], runs: [] });
  });

  it("links to the earlier run's chat and execute_tool spans, in the earlier trace; the rows keep each message's producer", async () => {
    const store = new PostgresConversationStore({ pool: s.pool() });
    await store.ensureSchema();
    const traced = await continueConversation(store, 'links-pg');
    expectLinksIntoTheEarlierTrace(traced);
    const { rows } = await s.pool().query(`SELECT seq, producer FROM footprint_conversation_messages WHERE conversation_id = 'links-pg' ORDER BY seq`);
    const calls = traced.first.filter((span) => span.name === 'chat m1').map((span) => String(span.attributes['footprint.llm.call_id']));
    const answer = String(traced.second.find((span) => span.name === 'chat m1')!.attributes['footprint.llm.call_id']);
    expect(rows.map((row: { producer: string | null }) => row.producer)).toEqual([
      null,
      calls[0],
      `${calls[0]}:c1`,
      `${calls[0]}:c2`,
      calls[1],
      `${calls[1]}:c3`,
      calls[2],
      null,
      answer,
    ]);
  });
});
