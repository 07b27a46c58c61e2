/**
 * Lineage over a conversation kept in PostgreSQL (issue #36), against a real PostgreSQL 15: a table
 * made by the version before (no carry column) gets it from ensureSchema(), idempotently; a run that
 * continues the conversation sends the loaded messages as conversation parts of the run that appended
 * them, and its instruments get that run's carry back (RunStart.restored).
 */
import { afterEach, expect, it } from 'vitest';
import { Agent, registerInstrument, scripted, type RunStart } from '../../src/index.js';
import { PostgresConversationStore } from '../../src/postgres/index.js';
import { lineageLog, message, producer } from '../support/lineage.js';
import { describeWithPostgres, startPostgres } from '../support/postgres.js';

const server = await startPostgres();
const TABLE = 'footprint_conversation_messages';

describeWithPostgres('lineage over the PostgreSQL conversation store', server, (s) => {
  const pool = s.pool();
  const unregister: (() => void)[] = [];
  afterEach(() => unregister.splice(0).forEach((off) => off()));

  it("adds the carry column to an earlier version's table, once, however often it is asked", async () => {
    // The table as the version before made it.
    await pool.query(`CREATE TABLE ${TABLE} (
      conversation_id text NOT NULL, seq integer NOT NULL CHECK (seq >= 0), run_id text NOT NULL, message json NOT NULL,
      appended_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (conversation_id, seq))`);
    await pool.query(`INSERT INTO ${TABLE} (conversation_id, seq, run_id, message) VALUES ('old', 0, 'run-old', '{"role":"user","content":"hi"}')`);
    const stores = [1, 2, 3].map(() => new PostgresConversationStore({ pool: s.pool() }));
    await Promise.all(stores.map((store) => store.ensureSchema()));
    await stores[0]!.ensureSchema();
    const { rows } = await pool.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 AND column_name = 'carry'`, [TABLE]);
    expect(rows).toEqual([{ column_name: 'carry', data_type: 'jsonb' }]);
    // A row written before the column existed reads back with an empty carry.
    expect(await stores[0]!.load('old')).toEqual({ messages: [{ role: 'user', content: 'hi' }], runs: [{ runId: 'run-old', messages: 1, carry: {} }] });
  });

  it('continues a stored conversation: conversation parts by the run that appended them, and its carry back', async () => {
    const restoredSeen: RunStart['restored'][] = [];
    unregister.push(
      registerInstrument({
        id: 'lineage-pg-carry',
        start(run) {
          return { appending: () => ({ wrote: run.runId }), finished: () => void restoredSeen.push(run.restored && [...run.restored]) };
        },
      }),
    );
    const conversations = new PostgresConversationStore({ pool });
    await conversations.ensureSchema();
    const agent = Agent.create({ provider: scripted({ replies: ['It is paid.', 'On May 2.'] }), model: 'm1', id: 'desk' }).build();
    const log = lineageLog(agent);
    const first = await agent.run('Is INV-7 paid?', { conversationId: 'pg-1', conversationStore: conversations });
    const second = await agent.run('When?', { conversationId: 'pg-1', conversationStore: conversations });
    const earlier = producer.run(first.runId, first.runId);
    expect(log.parts()[1]).toEqual([
      message(0, 'user', 'conversation', earlier, 'Is INV-7 paid?', { restoredFrom: 'run_input' }),
      message(1, 'assistant', 'conversation', earlier, 'It is paid.', { restoredFrom: 'model_output' }),
      message(2, 'user', 'run_input', producer.run(second.runId), 'When?'),
    ]);
    expect(restoredSeen).toEqual([[], [{ runId: first.runId, carry: { wrote: first.runId } }]]);
    const { rows } = await pool.query(`SELECT seq, run_id, carry FROM ${TABLE} WHERE conversation_id = 'pg-1' ORDER BY seq`);
    expect(rows).toEqual([
      { seq: 0, run_id: first.runId, carry: { wrote: first.runId } },
      { seq: 1, run_id: first.runId, carry: null },
      { seq: 2, run_id: second.runId, carry: { wrote: second.runId } },
      { seq: 3, run_id: second.runId, carry: null },
    ]);
  });
});
