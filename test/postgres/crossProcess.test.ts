/**
 * Stores shared by processes, on a real PostgreSQL 15 (test/support/postgres.ts):
 * - two processes resume one checkpoint at the same moment through the PostgreSQL checkpoint store,
 *   and the refund after the pause runs once (the other process is refused 'already_resumed');
 * - a thread written by one process and continued by another reads back whole and in order;
 * - a three-turn conversation by id across two processes, each turn an agent run on the store: the
 *   third turn's request holds the first two turns' messages, in order, with tool calls and results.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PostgresCheckpointStore, PostgresConversationStore } from '../../src/postgres/index.js';
import { isPaused, type StoredConversation } from '../../src/runtime/index.js';
import { refundAgent } from '../fixtures/refundAgent.js';
import { compiled } from '../support/compiled.js';
import { lineChild, type LineChild } from '../support/lineChild.js';
import { describeWithPostgres, startPostgres } from '../support/postgres.js';
import { scratchFolders } from '../support/scratch.js';

type Message = StoredConversation['messages'][number];

const server = await startPostgres();
const scratch = scratchFolders('fp-pg-cross-');
const children: LineChild[] = [];
afterAll(async () => {
  await Promise.all(children.splice(0).map((child) => child.close()));
});

function child(fixture: string, args: string[]): LineChild {
  const started = lineChild(compiled(`test/fixtures/${fixture}.ts`), args);
  children.push(started);
  return started;
}

async function ask(process: LineChild, command: unknown): Promise<any> {
  process.send(JSON.stringify(command));
  return JSON.parse(await process.next());
}

function turn(n: number): Message[] {
  return [
    { role: 'user', content: `Is INV-${n} paid?` },
    { role: 'assistant', content: '', toolCalls: [{ id: `call-${n}`, name: 'lookup_invoice', args: { id: `INV-${n}` } }] },
    { role: 'tool', content: `invoice INV-${n}: paid`, toolCallId: `call-${n}` },
    { role: 'assistant', content: `INV-${n} is paid.` },
  ];
}

describeWithPostgres('stores shared by processes', server, (s) => {
  const pool = s.pool();

  it('two processes resume one checkpoint at the same moment: the refund runs once', async () => {
    await new PostgresCheckpointStore({ pool }).ensureSchema();
    const paused = await refundAgent().run('Refund INV-7 please');
    if (!isPaused(paused)) throw new Error('expected a pause');
    const file = join(scratch(), 'checkpoint.json');
    writeFileSync(file, JSON.stringify(paused.paused.checkpoint));
    const both = [child('resumeOnPostgres', [file, String(s.port)]), child('resumeOnPostgres', [file, String(s.port)])];
    expect(await Promise.all(both.map((c) => c.next()))).toEqual(['ready', 'ready']);
    for (const c of both) c.send('go');
    const reports = (await Promise.all(both.map((c) => c.next()))).map((line) => JSON.parse(line));
    expect(new Set(reports.map((r) => r.pid)).size).toBe(2);
    expect(reports.map((r) => r.resumed).sort()).toEqual([false, true]);
    expect(reports.find((r) => r.resumed)).toMatchObject({ result: 'Done: invoice INV-7: $40 paid | refunded $40', refundToolRuns: 1 });
    expect(reports.find((r) => !r.resumed)).toMatchObject({ error: { name: 'CheckpointError', reason: 'already_resumed' }, refundToolRuns: 0 });
    const { rows } = await pool.query('SELECT checkpoint_id, run_id, runner_kind, runner_id FROM footprint_checkpoint_claims');
    expect(rows).toEqual([{ checkpoint_id: paused.paused.checkpoint.id, run_id: paused.paused.checkpoint.runId, runner_kind: 'agent', runner_id: 'refunds' }]);
  });

  it('a thread one process wrote, another continues: each loads the whole thread in order', async () => {
    await new PostgresConversationStore({ pool }).ensureSchema();
    const [a, b] = [child('conversationOnPostgres', [String(s.port)]), child('conversationOnPostgres', [String(s.port)])];
    expect((await ask(a!, { op: 'load', id: 'across' })).messages).toEqual([]);
    expect(await ask(a!, { op: 'append', id: 'across', runId: 'run-1', after: 0, messages: turn(1) })).toMatchObject({ ok: true });
    expect((await ask(b!, { op: 'load', id: 'across' })).messages).toEqual(turn(1));
    expect(await ask(b!, { op: 'append', id: 'across', runId: 'run-2', after: 4, messages: turn(2) })).toMatchObject({ ok: true });
    expect(await ask(a!, { op: 'append', id: 'across', runId: 'run-x', after: 4, messages: turn(9) })).toEqual({ error: { name: 'ConversationConflictError', code: 'conflict' } });
    expect((await ask(a!, { op: 'load', id: 'across' })).messages).toEqual([...turn(1), ...turn(2)]);
    expect(await ask(a!, { op: 'append', id: 'across', runId: 'run-3', after: 8, messages: turn(3) })).toMatchObject({ ok: true });
    expect((await ask(b!, { op: 'load', id: 'across' })).messages).toEqual([...turn(1), ...turn(2), ...turn(3)]);
  });

  it(
    'a three-turn conversation by id across two processes: the third request holds the first two turns in order',
    async () => {
      await new PostgresConversationStore({ pool }).ensureSchema();
      const [a, b] = [child('conversationAgentOnPostgres', [String(s.port)]), child('conversationAgentOnPostgres', [String(s.port)])];
      const first = await ask(a!, { id: 'three-turns', question: 'Is INV-1 paid?' });
      const second = await ask(b!, { id: 'three-turns', question: 'And INV-2?' });
      const third = await ask(a!, { id: 'three-turns', question: 'And INV-3?' });
      expect(new Set([first.pid, third.pid])).toEqual(new Set([first.pid]));
      expect(second.pid).not.toBe(first.pid);
      const shown = (third.requests[0] as Message[])
        .filter((m) => m.role !== ('system' as string))
        .map((m) => [m.role, m.content, m.toolCalls?.map((c) => [c.name, c.args]), m.toolCallId === undefined ? undefined : 'answers a call']);
      const turnShown = (question: string, n: number) => [
        ['user', question, undefined, undefined],
        ['assistant', '', [['lookup_invoice', { id: `INV-${n}` }]], undefined],
        ['tool', `invoice INV-${n}: paid`, undefined, 'answers a call'],
        ['assistant', `INV-${n} is paid.`, undefined, undefined],
      ];
      expect(shown).toEqual([...turnShown('Is INV-1 paid?', 1), ...turnShown('And INV-2?', 2), ['user', 'And INV-3?', undefined, undefined]]);
      const thread = third.requests[0] as Message[];
      for (const [index, message] of thread.entries()) {
        if (message.role === 'tool') expect(message.toolCallId).toBe(thread[index - 1]!.toolCalls![0]!.id);
      }
    },
  );
});
