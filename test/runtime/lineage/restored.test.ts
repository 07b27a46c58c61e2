/**
 * Lineage of what a run did not make itself (issue #36): messages restored from a checkpoint at
 * resume are `checkpoint` parts with their producers as before the pause (the same run), also when
 * the checkpoint went through JSON to another runner instance; messages loaded from a stored
 * conversation are `conversation` parts produced by the run that appended them, what they were said
 * by restoredFrom, and the instruments' carry of that run comes back in RunStart.restored.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, isPaused, MemoryConversationStore, registerInstrument, scripted, type ConversationStore, type Message, type RunStart } from '../../../src/index.js';
import { refundAgent } from '../../fixtures/refundAgent.js';
import { compiled } from '../../support/compiled.js';
import { lineageLog, message, producer, toolList } from '../../support/lineage.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('fp-lineage-');

const REFUND_TOOLS = [
  { name: 'lookup_invoice', description: 'Find an invoice', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
  { name: 'refund', description: 'Refund an invoice (needs approval)', inputSchema: { type: 'object', properties: { id: { type: 'string' }, amount: { type: 'number' } }, required: ['id', 'amount'] } },
];
const ASKED = [
  { name: 'lookup_invoice', args: { id: 'INV-7' } },
  { name: 'refund', args: { id: 'INV-7', amount: 40 } },
];

describe('a run paused and resumed', () => {
  it('on another Agent instance from the JSON of its checkpoint: the restored messages are checkpoint parts, producers as before the pause', async () => {
    const paused = refundAgent();
    const before = lineageLog(paused);
    const out = await paused.run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    const [c1] = before.callIds() as [string];
    const input = message(0, 'user', 'run_input', producer.run(out.runId), 'Refund INV-7 please');
    const tools = toolList('refunds', REFUND_TOOLS);
    expect(before.parts()).toEqual([[input, tools]]);

    const resumer = refundAgent();
    const after = lineageLog(resumer);
    const result = await resumer.resume(JSON.stringify(out.paused.checkpoint), 'yes');
    expect(result.runId).toBe(out.runId);
    expect(result.text).toBe('Done: invoice INV-7: $40 paid | refunded $40');
    // The question and the model's tool calls were in the checkpoint; the results were appended after the resume.
    expect(after.parts()).toEqual([
      [
        message(0, 'user', 'checkpoint', producer.run(out.runId), 'Refund INV-7 please', { restoredFrom: 'run_input' }),
        message(1, 'assistant', 'checkpoint', producer.call(c1), '', { toolCalls: ASKED, restoredFrom: 'model_output' }),
        message(2, 'tool', 'tool_result', producer.tool(c1, 'inv'), 'invoice INV-7: $40 paid'),
        message(3, 'tool', 'tool_result', producer.tool(c1, 'ref'), 'refunded $40'),
        tools,
      ],
    ]);
  });

  it('in another process: the same parts', async () => {
    const paused = refundAgent();
    const before = lineageLog(paused);
    const out = await paused.run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    const [c1] = before.callIds() as [string];
    const file = join(scratch(), 'checkpoint.json');
    writeFileSync(file, JSON.stringify(out.paused.checkpoint));
    const child = await promisify(execFile)(process.execPath, [compiled('test/fixtures/resumeInChild.ts'), 'refund', file, 'yes'], { cwd: process.cwd() });
    const report = JSON.parse(child.stdout) as { pid: number; events: { type: string; parts?: unknown }[] };
    expect(report.pid).not.toBe(process.pid);
    expect(report.events.filter((e) => e.type === 'footprint.call.llm_start').map((e) => e.parts)).toEqual([
      [
        message(0, 'user', 'checkpoint', producer.run(out.runId), 'Refund INV-7 please', { restoredFrom: 'run_input' }),
        message(1, 'assistant', 'checkpoint', producer.call(c1), '', { toolCalls: ASKED, restoredFrom: 'model_output' }),
        message(2, 'tool', 'tool_result', producer.tool(c1, 'inv'), 'invoice INV-7: $40 paid'),
        message(3, 'tool', 'tool_result', producer.tool(c1, 'ref'), 'refunded $40'),
        toolList('refunds', REFUND_TOOLS),
      ],
    ]);
  });
});

describe('a run that continues a stored conversation', () => {
  const unregister: (() => void)[] = [];
  afterEach(() => unregister.splice(0).forEach((off) => off()));

  it('sends the loaded messages as conversation parts of what produced them in the run that appended them; its carry comes back', async () => {
    const restoredSeen: RunStart['restored'][] = [];
    unregister.push(
      registerInstrument({
        id: 'lineage-test-carry',
        start(run) {
          return { appending: () => ({ wrote: run.runId }), finished: () => void restoredSeen.push(run.restored && [...run.restored]) };
        },
      }),
    );
    const conversations = new MemoryConversationStore();
    const agent = Agent.create({ provider: scripted({ replies: ['It is paid.', 'Yes, on May 2.'] }), model: 'm1', id: 'desk' }).build();
    const log = lineageLog(agent);
    const first = await agent.run('Is INV-7 paid?', { conversationId: 'c-1', conversationStore: conversations });
    const second = await agent.run('When?', { conversationId: 'c-1', conversationStore: conversations });
    expect(second.text).toBe('Yes, on May 2.');
    const [firstCall, secondCall] = log.callIds() as [string, string];
    expect(log.parts()).toEqual([
      [message(0, 'user', 'run_input', producer.run(first.runId), 'Is INV-7 paid?')],
      [
        // The first run's input was the run's; its answer, its model call's.
        message(0, 'user', 'conversation', producer.run(first.runId, first.runId), 'Is INV-7 paid?', { restoredFrom: 'run_input' }),
        message(1, 'assistant', 'conversation', producer.call(firstCall, first.runId), 'It is paid.', { restoredFrom: 'model_output' }),
        message(2, 'user', 'run_input', producer.run(second.runId), 'When?'),
      ],
    ]);
    // The store keeps each run's entry with its carry and each message's producer; the second run's instruments got the first's carry back.
    expect((await conversations.load('c-1')).runs).toEqual([
      { runId: first.runId, messages: 2, carry: { wrote: first.runId }, producers: [null, firstCall] },
      { runId: second.runId, messages: 2, carry: { wrote: second.runId }, producers: [null, secondCall] },
    ]);
    expect(restoredSeen).toEqual([[], [{ runId: first.runId, carry: { wrote: first.runId } }]]);
  });

  it("a store of one's own that keeps no runs still works: the loaded messages' producer is unknown ('')", async () => {
    const kept: { messages: Message[] } = { messages: [{ role: 'user', content: 'Is INV-7 paid?' }, { role: 'assistant', content: 'It is paid.' }] };
    const store: ConversationStore = { load: async () => kept, append: async () => {} };
    const agent = Agent.create({ provider: scripted({ replies: ['On May 2.'] }), model: 'm1', id: 'desk' }).build();
    const log = lineageLog(agent);
    const result = await agent.run('When?', { conversationId: 'c-3', conversationStore: store });
    const unknown = producer.run('', '');
    expect(log.parts()).toEqual([
      [
        message(0, 'user', 'conversation', unknown, 'Is INV-7 paid?', { restoredFrom: 'run_input' }),
        message(1, 'assistant', 'conversation', unknown, 'It is paid.', { restoredFrom: 'model_output' }),
        message(2, 'user', 'run_input', producer.run(result.runId), 'When?'),
      ],
    ]);
  });

  it("an instrument's carry that is no JSON is dropped, never failing the append", async () => {
    unregister.push(registerInstrument({ id: 'lineage-test-bad-carry', start: () => ({ appending: () => ({ big: 1n }) }) }));
    const conversations = new MemoryConversationStore();
    const agent = Agent.create({ provider: scripted({ replies: ['ok'] }), model: 'm1', id: 'desk' }).build();
    const log = lineageLog(agent);
    const result = await agent.run('hi', { conversationId: 'c-2', conversationStore: conversations });
    expect(await conversations.load('c-2')).toEqual({
      messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'ok' }],
      runs: [{ runId: result.runId, messages: 2, carry: {}, producers: [null, log.callIds()[0]] }],
    });
  });

  it('a run without a conversation has no restored entries at all', async () => {
    const starts: RunStart[] = [];
    unregister.push(registerInstrument({ id: 'lineage-test-start', start: (run) => void starts.push(run) }));
    await Agent.create({ provider: scripted({ replies: ['ok'] }), model: 'm1', id: 'desk' }).build().run('hi');
    expect(starts.map((run) => 'restored' in run)).toEqual([false]);
  });
});
