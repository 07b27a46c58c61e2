/**
 * Load: 1,000 agent runs started at once (Promise.all), each with a model call, a tool call after a
 * small random delay and a final answer, give 1,000 well-formed traces: 1,000 distinct trace ids,
 * one root each, every parent inside its own trace, no span id shared, every span ended — and every
 * span of a trace belongs to that trace's own run (run id, conversation id, tool call id and the
 * captured message all name the same run), so concurrent runs never leak into each other.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryConversationStore, messageText, Agent, scripted, tracingFailures, type LLMRequest, type ScriptedReply } from '../../src/index.js';
import { startSdk } from '../support/sdk.js';
import { groupByTrace, rootOf, traceProblems } from '../support/traceChecks.js';

const RUNS = 1000;
// content capture on, so each chat span shows the message its run was sent
const sdk = startSdk({ tracing: { captureContent: true } });
afterAll(async () => {
  await sdk.shutdown();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const jitter = () => Math.floor(Math.random() * 4);

/** "question 17" -> 17 */
function runIndex(request: LLMRequest): number {
  const first = messageText(request.messages.find((m) => m.role === 'user')?.content ?? '');
  return Number(/question (\d+)/.exec(first)?.[1]);
}

const provider = scripted({
  name: 'openai',
  replies: (request): ScriptedReply => {
    const i = runIndex(request);
    const tool = request.messages.find((m) => m.role === 'tool');
    if (tool) return { content: `answer ${i}: ${tool.content}`, usage: { input: 30, output: 5 }, delayMs: jitter() };
    return { toolCalls: [{ id: `lookup-${i}`, name: 'lookup', args: { n: i } }], usage: { input: 20, output: 4 }, delayMs: jitter() };
  },
});

const agent = Agent.create({ provider, model: 'm-load', id: 'loader', name: 'Loader' })
  .tool({
    name: 'lookup',
    description: 'Finds record n',
    inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    execute: async (args: { n: number }) => {
      await sleep(jitter());
      return `record ${args.n}`;
    },
  })
  .build();

describe(`${RUNS} concurrent runs`, () => {
  it('give as many well-formed traces, each holding only its own run', async () => {
    const failuresBefore = tracingFailures();
    const answers = await Promise.all(
      Array.from({ length: RUNS }, (_, i) => agent.run(`question ${i}`, { conversationId: `conversation-${i}`, conversationStore: new MemoryConversationStore() })),
    );
    expect(answers.map((a) => a.text)).toEqual(Array.from({ length: RUNS }, (_, i) => `answer ${i}: record ${i}`));

    const spans = sdk.spans();
    expect(traceProblems(spans, { unended: sdk.unended(), traces: RUNS })).toEqual([]);
    expect(tracingFailures()).toBe(failuresBefore);

    const traces = groupByTrace(spans);
    const runIds = new Set<string>();
    const mismatches: string[] = [];
    for (const [traceId, members] of traces) {
      const root = rootOf(members)!;
      expect(root.name).toBe('invoke_agent Loader');
      const conversation = String(root.attributes['gen_ai.conversation.id']);
      const i = Number(/^conversation-(\d+)$/.exec(conversation)?.[1]);
      runIds.add(String(root.attributes['footprint.run.id']));
      mismatches.push(...ownRunProblems(traceId, members, i, conversation));
    }
    expect(mismatches).toEqual([]);
    expect(runIds.size).toBe(RUNS);
  }, 60_000);
});

/** Everything in one trace that points at a run other than run `i`. */
function ownRunProblems(traceId: string, spans: ReadableSpan[], i: number, conversation: string): string[] {
  const problems: string[] = [];
  const chats = spans.filter((s) => s.name === 'chat m-load');
  const tools = spans.filter((s) => s.name === 'execute_tool lookup');
  if (!Number.isInteger(i)) problems.push(`${traceId}: root has no conversation id`);
  if (chats.length !== 2 || tools.length !== 1) problems.push(`${traceId}: ${chats.length} chat and ${tools.length} tool spans`);
  for (const chat of chats) {
    if (chat.attributes['gen_ai.conversation.id'] !== conversation) problems.push(`${traceId}: chat span of another conversation`);
    const input = JSON.parse(String(chat.attributes['gen_ai.input.messages'])) as { role: string; parts: { content?: string }[] }[];
    if (input[0]?.parts[0]?.content !== `question ${i}`) problems.push(`${traceId}: chat span sent another run's message`);
  }
  for (const tool of tools) {
    if (tool.attributes['gen_ai.tool.call.id'] !== `lookup-${i}`) problems.push(`${traceId}: tool call of another run`);
    if (tool.attributes['gen_ai.tool.call.result'] !== `record ${i}`) problems.push(`${traceId}: tool result of another run`);
  }
  return problems;
}
