/**
 * A PostgreSQL that is down or slow, for real (test/support/postgres.ts): the server stopped in the
 * middle of a run, a table held locked by another session, a commit whose reply never arrives. Each
 * store call fails within its bound with a typed error (ConversationStoreError 'unavailable' or
 * 'timeout'; CheckpointError 'store_failed' for a claim, which refuses the resume), nothing is lost
 * and nothing is appended twice: the same append again, once the server is back, lands exactly once.
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { PostgresCheckpointStore, PostgresConversationStore, type PgClient, type PgPool } from '../../src/postgres/index.js';
import { Agent, scripted, type RunOptions } from '../../src/index.js';
import { CheckpointError, ConversationStoreError, isPaused, type StoredConversation } from '../../src/runtime/index.js';
import { refundAgent } from '../fixtures/refundAgent.js';
import { startSdk } from '../support/sdk.js';
import { describeWithPostgres, startPostgres } from '../support/postgres.js';

type Message = StoredConversation['messages'][number];

const server = await startPostgres();
const sdk = startSdk({ tracing: false });
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const TABLE = 'footprint_conversation_messages';

function turn(n: number): Message[] {
  return [
    { role: 'user', content: `Is INV-${n} paid?` },
    { role: 'assistant', content: '', toolCalls: [{ id: `call-${n}`, name: 'lookup_invoice', args: { id: `INV-${n}` } }] },
    { role: 'tool', content: `invoice INV-${n}: paid`, toolCallId: `call-${n}` },
    { role: 'assistant', content: `INV-${n} is paid.` },
  ];
}

async function timed<T>(work: Promise<T>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

describeWithPostgres('stores on a PostgreSQL that is down or slow', server, (s) => {
  const pool = s.pool();
  const conversations = new PostgresConversationStore({ pool, timeoutMs: 2_000 });
  const checkpoints = new PostgresCheckpointStore({ pool, timeoutMs: 2_000 });

  it('stopped mid-run: a typed error at once, then the same append once it is back lands exactly once', async () => {
    await conversations.ensureSchema();
    await checkpoints.ensureSchema();
    await conversations.append('outage', { runId: 'run-1', after: 0, messages: turn(1) });
    const tracer = trace.getTracer('test');
    const failed = await tracer.startActiveSpan('run', async (run) => {
      await s.stop();
      expect(await s.running()).toBe(false);
      const result = await timed(conversations.append('outage', { runId: 'run-2', after: 4, messages: turn(2) }));
      run.end();
      return result;
    });
    expect(failed.error).toBeInstanceOf(ConversationStoreError);
    expect(failed.error).toMatchObject({ code: 'unavailable' });
    expect(failed.ms).toBeLessThan(2_000);
    const append = sdk.spans().find((span) => span.name === `INSERT ${TABLE}` && span.status.code === SpanStatusCode.ERROR)!;
    expect(append.attributes['error.type']).toBe('unavailable');
    expect(append.parentSpanContext?.spanId).toBe(sdk.spans().find((span) => span.name === 'run')!.spanContext().spanId);

    await expect(conversations.load('outage')).rejects.toMatchObject({ name: 'ConversationStoreError', code: 'unavailable' });
    await expect(checkpoints.claim('cp-outage', { runId: 'run-x', runner: { kind: 'agent', id: 'refunds' } })).rejects.toMatchObject({
      name: 'CheckpointError',
      reason: 'store_failed',
    });

    await s.start();
    await conversations.append('outage', { runId: 'run-2', after: 4, messages: turn(2) });
    await conversations.append('outage', { runId: 'run-2', after: 4, messages: turn(2) });
    expect((await conversations.load('outage')).messages).toEqual([...turn(1), ...turn(2)]);
    const { rows } = await pool.query(`SELECT run_id, count(*)::int AS n FROM ${TABLE} WHERE conversation_id = 'outage' GROUP BY run_id ORDER BY run_id`);
    expect(rows).toEqual([
      { run_id: 'run-1', n: 4 },
      { run_id: 'run-2', n: 4 },
    ]);
  });

  it(
    'an agent run on the store, PostgreSQL stopped mid-run: run() rejects typed with the whole result, whose append lands once when it is back',
    async () => {
      await conversations.append('mid-run', { runId: 'earlier', after: 0, messages: turn(1) });
      const provider = scripted({ replies: [{ toolCalls: [{ id: 'stop', name: 'stop_database', args: {} }] }, { content: 'Stopped it.' }] });
      const agent = Agent.create({ provider, model: 'gpt-4o-mini', id: 'operator' })
        .tool({
          name: 'stop_database',
          description: 'Stops the database',
          inputSchema: { type: 'object', properties: {} },
          execute: async () => {
            await s.stop();
            return 'stopped';
          },
        })
        .build();
      const options: RunOptions & Record<string, unknown> = { conversationId: 'mid-run', conversationStore: conversations };
      const failed = await timed(agent.run('Stop the database', options)).finally(async () => {
        if (!(await s.running())) await s.start();
      });
      expect(failed.error).toBeInstanceOf(ConversationStoreError);
      expect(failed.error).toMatchObject({ code: 'unavailable' });
      expect(failed.ms).toBeLessThan(4_000);
      const result = (failed.error as ConversationStoreError & { result: { runId: string; messages: Message[] } }).result;
      expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(provider.calls[0]!.messages.slice(0, 4)).toEqual(turn(1));
      await conversations.append('mid-run', { runId: result.runId, after: 4, messages: result.messages });
      await conversations.append('mid-run', { runId: result.runId, after: 4, messages: result.messages });
      expect((await conversations.load('mid-run')).messages).toEqual([...turn(1), ...result.messages]);
    },
  );

  it('a resume while the database is down is refused (store_failed) and its refund does not run; once back, it resumes once', async () => {
    const agent = refundAgent();
    const paused = await agent.run('Refund INV-7 please');
    if (!isPaused(paused)) throw new Error('expected a pause');
    const refunds = await import('../fixtures/refundAgent.js');
    const before = refunds.refundToolRuns;
    await s.stop();
    const refused = await timed(refundAgent().resume(paused.paused.checkpoint, 'yes', { checkpointStore: checkpoints }));
    expect(refused.error).toBeInstanceOf(CheckpointError);
    expect(refused.error).toMatchObject({ reason: 'store_failed' });
    expect(refused.ms).toBeLessThan(2_000);
    expect(refunds.refundToolRuns).toBe(before);
    const claim = sdk.spans().find((span) => span.name === 'INSERT footprint_checkpoint_claims')!;
    expect(claim.attributes).toEqual({
      'db.system.name': 'postgresql',
      'db.operation.name': 'INSERT',
      'db.collection.name': 'footprint_checkpoint_claims',
      'db.query.summary': 'INSERT footprint_checkpoint_claims',
      'db.namespace': 'postgres',
      'server.address': '127.0.0.1',
      'server.port': s.port,
      'footprint.store.call': 'claim',
      'error.type': 'unavailable',
    });
    await s.start();
    expect((await refundAgent().resume(paused.paused.checkpoint, 'yes', { checkpointStore: checkpoints })).text).toBe('Done: invoice INV-7: $40 paid | refunded $40');
    await expect(refundAgent().resume(paused.paused.checkpoint, 'yes', { checkpointStore: checkpoints })).rejects.toMatchObject({ reason: 'already_resumed' });
    expect(refunds.refundToolRuns).toBe(before + 1);
  });

  it('slow (its table locked by another session): timeout at the bound, nothing written; the same append later lands once', async () => {
    const quick = new PostgresConversationStore({ pool, timeoutMs: 400 });
    await quick.append('slow', { runId: 'run-1', after: 0, messages: turn(1) });
    const locker = await pool.connect();
    await locker.query(`BEGIN; LOCK TABLE ${TABLE} IN ACCESS EXCLUSIVE MODE`);
    const slow = await timed(quick.append('slow', { runId: 'run-2', after: 4, messages: turn(2) }));
    await locker.query('COMMIT');
    locker.release();
    expect(slow.error).toBeInstanceOf(ConversationStoreError);
    expect(slow.error).toMatchObject({ code: 'timeout' });
    expect(slow.ms).toBeGreaterThanOrEqual(390);
    expect(slow.ms).toBeLessThan(1_400);
    const span = sdk.spans().find((x) => x.name === `INSERT ${TABLE}` && x.status.code === SpanStatusCode.ERROR)!;
    expect(span.attributes['error.type']).toBe('timeout');
    expect((await quick.load('slow')).messages).toEqual(turn(1));
    await quick.append('slow', { runId: 'run-2', after: 4, messages: turn(2) });
    expect((await quick.load('slow')).messages).toEqual([...turn(1), ...turn(2)]);
  });

  it("a commit whose reply is lost: 'unavailable', and the app's retry with the same runId is a no-op", async () => {
    /** A pool whose connections lose the reply to COMMIT (the commit itself reaches the server). */
    const lossy: PgPool = {
      connect: async () => {
        const client = await pool.connect();
        const wrapped: PgClient = {
          query: async (text, values) => {
            const result = await client.query(text, values);
            if (text === 'COMMIT') throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
            return result;
          },
          release: (destroy) => client.release(destroy),
        };
        return wrapped;
      },
      end: () => Promise.resolve(),
      options: pool.options,
    };
    const store = new PostgresConversationStore({ pool: lossy });
    await expect(store.append('lost-reply', { runId: 'run-1', after: 0, messages: turn(1) })).rejects.toMatchObject({ code: 'unavailable' });
    await conversations.append('lost-reply', { runId: 'run-1', after: 0, messages: turn(1) });
    expect((await conversations.load('lost-reply')).messages).toEqual(turn(1));
  });
});
