/**
 * The PostgreSQL conversation store against a real PostgreSQL 15 (test/support/postgres.ts): the
 * schema made explicitly and idempotently, a thread read back in order with tool calls, results and
 * image parts, appends idempotent per runId and refused when another run wrote first (also at the
 * same moment), bad input and bad rows typed 'malformed', and each call's CLIENT span with its exact
 * attributes under the active span, read with the real OTel SDK.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { Agent, ConfigError, scripted } from '../../src/index.js';
import { PostgresConversationStore } from '../../src/postgres/index.js';
import { ConversationConflictError, ConversationStoreError, type StoredConversation } from '../../src/runtime/index.js';

type Message = StoredConversation['messages'][number];
import { startSdk } from '../support/sdk.js';
import { describeWithPostgres, startPostgres, type PostgresServer } from '../support/postgres.js';

const server = await startPostgres();
const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const TABLE = 'footprint_conversation_messages';

/** A turn with a tool call and its result, and an image part in the question. */
function turn(question: string, n: number): Message[] {
  return [
    { role: 'user', content: [{ type: 'text', text: question }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] },
    { role: 'assistant', content: '', toolCalls: [{ id: `call-${n}`, name: 'lookup_invoice', args: { id: `INV-${n}`, nested: { quote: 'a "b" \\ c', nul: '\u0000' } }, signature: `CiQB${n}sig=` }] },
    { role: 'tool', content: `invoice INV-${n}: $${n}0 paid`, toolCallId: `call-${n}` },
    { role: 'assistant', content: `INV-${n} is paid.` },
  ];
}

function dbAttributes(s: PostgresServer, operation: string, call: string, conversationId?: string) {
  return {
    'db.system.name': 'postgresql',
    'db.operation.name': operation,
    'db.collection.name': TABLE,
    'db.query.summary': `${operation} ${TABLE}`,
    'db.namespace': 'postgres',
    'server.address': '127.0.0.1',
    'server.port': s.port,
    'footprint.store.call': call,
    ...(conversationId === undefined ? {} : { 'gen_ai.conversation.id': conversationId }),
  };
}

describeWithPostgres('the PostgreSQL conversation store', server, (s) => {
  const pool = s.pool();
  const store = new PostgresConversationStore({ pool });

  it('creates its table only when asked, idempotently, from many callers at once', async () => {
    await expect(store.load('before-schema')).rejects.toMatchObject({ name: 'ConversationStoreError', code: 'unavailable', message: expect.stringContaining('42P01') });
    const failed = sdk.spans().at(-1)!;
    expect(failed.attributes).toEqual({ ...dbAttributes(s, 'SELECT', 'load', 'before-schema'), 'db.response.status_code': '42P01', 'error.type': 'unavailable' });
    sdk.reset();
    const others = [1, 2, 3].map(() => new PostgresConversationStore({ pool: s.pool() }));
    await Promise.all([store.ensureSchema(), ...others.map((other) => other.ensureSchema())]);
    await store.ensureSchema();
    const { rows } = await pool.query(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position`,
      [TABLE],
    );
    expect(rows).toEqual([
      { column_name: 'conversation_id', data_type: 'text' },
      { column_name: 'seq', data_type: 'integer' },
      { column_name: 'run_id', data_type: 'text' },
      { column_name: 'message', data_type: 'json' },
      { column_name: 'appended_at', data_type: 'timestamp with time zone' },
      { column_name: 'carry', data_type: 'jsonb' },
      { column_name: 'producer', data_type: 'text' },
    ]);
    const spans = sdk.spans();
    expect(spans.map((span) => [span.name, span.kind, span.status.code])).toEqual(
      Array.from({ length: 5 }, () => [`CREATE TABLE ${TABLE}`, SpanKind.CLIENT, SpanStatusCode.UNSET]),
    );
    expect(spans[0]!.attributes).toEqual(dbAttributes(s, 'CREATE TABLE', 'ensure_schema'));
    expect(spans[0]!.instrumentationScope.name).toBe('footprint-otel.postgres');
  });

  it('keeps a thread in order: an unknown id is empty, each run appends after what it loaded', async () => {
    expect(await store.load('thread-1')).toEqual({ messages: [], runs: [] });
    await store.append('thread-1', { runId: 'run-1', after: 0, messages: turn('Is INV-1 paid?', 1), carry: { traceparent: '00-a-b-01' } });
    await store.append('thread-1', { runId: 'run-2', after: 4, messages: turn('And INV-2?', 2) });
    // Each run's entry: how many messages it appended, and its instruments' carry ({} when none).
    expect(await store.load('thread-1')).toEqual({
      messages: [...turn('Is INV-1 paid?', 1), ...turn('And INV-2?', 2)],
      runs: [
        { runId: 'run-1', messages: 4, carry: { traceparent: '00-a-b-01' } },
        { runId: 'run-2', messages: 4, carry: {} },
      ],
    });
    expect(await store.load('thread-2')).toEqual({ messages: [], runs: [] });
  });

  it('appends a run once: the same runId at the same position again is a no-op', async () => {
    await store.append('idem', { runId: 'run-1', after: 0, messages: turn('q', 1) });
    await store.append('idem', { runId: 'run-1', after: 0, messages: turn('q', 1) });
    await Promise.all([1, 2, 3].map(() => store.append('idem', { runId: 'run-2', after: 4, messages: turn('r', 2) })));
    const { rows } = await pool.query(`SELECT seq, run_id FROM ${TABLE} WHERE conversation_id = 'idem' ORDER BY seq`);
    expect(rows).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((seq) => ({ seq, run_id: seq < 4 ? 'run-1' : 'run-2' })));
  });

  it('refuses a run whose position another run took, or that the thread does not have', async () => {
    await store.append('conflict', { runId: 'run-a', after: 0, messages: turn('a', 1) });
    const taken = store.append('conflict', { runId: 'run-b', after: 0, messages: turn('b', 2) });
    await expect(taken).rejects.toBeInstanceOf(ConversationConflictError);
    await expect(taken).rejects.toMatchObject({
      code: 'conflict',
      conversationId: 'conflict',
      after: 0,
      message: 'conversation "conflict": cannot append at position 0: run run-b: the thread holds 4 messages, not the 0 the run loaded; load it again',
    });
    await expect(store.append('conflict', { runId: 'run-c', after: 9, messages: turn('c', 3) })).rejects.toMatchObject({
      code: 'conflict',
      message: 'conversation "conflict": cannot append at position 9: run run-c: the thread holds 4 messages, not the 9 the run loaded; load it again',
    });
    await expect(store.append('conflict', { runId: 'run-a', after: 4, messages: turn('a', 1) })).rejects.toMatchObject({
      code: 'conflict',
      message: 'conversation "conflict": cannot append at position 4: run run-a: run run-a already appended 4 messages at position 0; load it again',
    });
    const spans = sdk.spans().filter((span) => span.status.code === SpanStatusCode.ERROR);
    expect(spans.map((span) => span.attributes)).toEqual(Array.from({ length: 3 }, () => ({ ...dbAttributes(s, 'INSERT', 'append', 'conflict'), 'error.type': 'conflict' })));
    expect((await store.load('conflict')).messages).toEqual(turn('a', 1));
  });

  it('of runs appending at one position at the same moment, exactly one gets in', async () => {
    const racers = Array.from({ length: 6 }, (_, i) => new PostgresConversationStore({ pool: s.pool() }).append('race', { runId: `run-${i}`, after: 0, messages: turn(`q${i}`, i) }));
    const settled = await Promise.allSettled(racers);
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as ConversationStoreError).code);
    expect(refused).toEqual(['conflict', 'conflict', 'conflict', 'conflict', 'conflict']);
    const winner = settled.findIndex((r) => r.status === 'fulfilled');
    expect((await store.load('race')).messages).toEqual(turn(`q${winner}`, winner));
  });

  it('types bad input and bad rows as malformed, before or without writing', async () => {
    const bad: [unknown, unknown, string][] = [
      ['', { runId: 'r', after: 0, messages: [] }, 'the conversation id must be a non-empty string'],
      ['m', { runId: '', after: 0, messages: [] }, 'conversation m: runId must be a non-empty string'],
      ['m', { runId: 'r', after: -1, messages: [] }, 'conversation m: after must be a whole number from 0, got -1'],
      ['m', { runId: 'r', after: 0, messages: [{ role: 'system', content: 'x' }] }, 'conversation m: message 0 of run r is not a message (role, content) that JSON can hold'],
      ['m', { runId: 'r', after: 0, messages: [{ role: 'user', content: 'x', toolCalls: [{ id: 'a', name: 'b', args: { n: 1n } }] }] }, 'conversation m: message 0 of run r is not a message (role, content) that JSON can hold'],
      ['m', { runId: 'r', after: 0, messages: [{ role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'b', args: {}, signature: 5 }] }] }, 'conversation m: message 0 of run r is not a message (role, content) that JSON can hold'],
    ];
    for (const [id, entry, message] of bad) {
      await expect(store.append(id as string, entry as never)).rejects.toMatchObject({ name: 'ConversationStoreError', code: 'malformed', message });
    }
    await expect(store.append('m', { runId: 'r', after: 0, messages: [{ role: 'user', content: 'NUL in an id' }] }).then(() => store.append('m\u0000', { runId: 'r', after: 0, messages: turn('x', 1) }))).rejects.toMatchObject({ code: 'malformed' });
    await pool.query(`INSERT INTO ${TABLE} (conversation_id, seq, run_id, message) VALUES ('m', 1, 'other', '{"role":"robot"}')`);
    await expect(store.load('m')).rejects.toMatchObject({ code: 'malformed', message: 'conversation m: the stored row at position 1 is not the next message of the thread' });
    expect(sdk.spans().at(-1)!.attributes).toEqual({ ...dbAttributes(s, 'SELECT', 'load', 'm'), 'error.type': 'malformed' });
  });

  it("inside a run, a tool's store call is a span of the run's trace, under its execute_tool span", async () => {
    await store.append('in-run', { runId: 'earlier', after: 0, messages: turn('q', 1) });
    const provider = scripted({
      replies: [{ toolCalls: [{ id: 'c1', name: 'history', args: {} }] }, { content: 'done' }],
    });
    const agent = Agent.create({ provider, model: 'gpt-4o-mini', id: 'historian' })
      .tool({
        name: 'history',
        description: 'Reads the thread',
        inputSchema: { type: 'object', properties: {} },
        execute: async () => `${(await store.load('in-run')).messages.length} messages`,
      })
      .build();
    await agent.run('How long is the thread?');
    const spans = sdk.spans();
    const load = spans.find((span) => span.name === `SELECT ${TABLE}`)!;
    const tool = spans.find((span) => span.name === 'execute_tool history')!;
    const run = spans.find((span) => span.name === 'invoke_agent historian')!;
    expect(load.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(load.spanContext().traceId).toBe(run.spanContext().traceId);
    expect(load.attributes).toEqual(dbAttributes(s, 'SELECT', 'load', 'in-run'));
    expect(provider.calls[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: '4 messages' });
  });

  it("a call stopped by the caller's signal rejects with its reason, and its span says cancelled", async () => {
    const controller = new AbortController();
    const locker = await pool.connect();
    await locker.query(`BEGIN; LOCK TABLE ${TABLE} IN ACCESS EXCLUSIVE MODE`);
    const pending = store.load('cancelled', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the user left')), 50);
    await expect(pending).rejects.toThrow('the user left');
    await locker.query('COMMIT');
    locker.release();
    const span = sdk.spans().at(-1)!;
    expect(span.attributes).toEqual({ ...dbAttributes(s, 'SELECT', 'load', 'cancelled'), 'error.type': 'cancelled' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'cancelled' });
  });

  it('a pool with no free connection: timeout at the bound, and the connection that comes late goes back to the pool', async () => {
    const single = s.pool({ max: 1 });
    const bounded = new PostgresConversationStore({ pool: single, timeoutMs: 200 });
    const held = await single.connect();
    const started = performance.now();
    await expect(bounded.load('busy')).rejects.toMatchObject({ name: 'ConversationStoreError', code: 'timeout', message: 'conversation busy could not be loaded: timeout: no answer within 200 ms' });
    expect(performance.now() - started).toBeLessThan(1_000);
    held.release();
    expect(await bounded.load('busy')).toEqual({ messages: [], runs: [] });
    expect({ total: single.totalCount, idle: single.idleCount, waiting: single.waitingCount }).toEqual({ total: 1, idle: 1, waiting: 0 });
  });

  it('makes and closes its own pool from connection settings, and refuses options that cannot work', async () => {
    const own = new PostgresConversationStore({ pool: { ...s.settings } });
    await own.append('own-pool', { runId: 'r', after: 0, messages: turn('q', 1) });
    expect(await own.load('own-pool')).toEqual({ messages: turn('q', 1), runs: [{ runId: 'r', messages: 4, carry: {} }] });
    await own.close();
    await expect(own.load('own-pool')).rejects.toMatchObject({ code: 'unavailable' });
    expect(() => new PostgresConversationStore({ pool: pool, timeoutMs: 0 })).toThrow(ConfigError);
    expect(() => new PostgresConversationStore({ pool: pool, timeoutMs: 0 })).toThrow('PostgresConversationStore: timeoutMs must be a whole number of milliseconds from 1 to 2147483647, got 0');
    expect(() => new PostgresConversationStore({} as never)).toThrow('PostgresConversationStore: pass { pool } (a pg.Pool or pg connection settings)');
  });

  it('records each call as a CLIENT span under the active span', async () => {
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('run', async (run) => {
      await store.append('spans', { runId: 'run-1', after: 0, messages: turn('q', 1) });
      await store.load('spans');
      run.end();
    });
    const [append, load, run] = sdk.spans();
    expect([append!.name, load!.name, run!.name]).toEqual([`INSERT ${TABLE}`, `SELECT ${TABLE}`, 'run']);
    for (const span of [append!, load!]) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(run!.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(run!.spanContext().traceId);
      expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    }
    expect(append!.attributes).toEqual(dbAttributes(s, 'INSERT', 'append', 'spans'));
    expect(load!.attributes).toEqual(dbAttributes(s, 'SELECT', 'load', 'spans'));
  });
});
