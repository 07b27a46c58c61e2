/**
 * The stores' tables, created by ensureSchema() only (a store never changes the schema on its own):
 * `CREATE ... IF NOT EXISTS` under a transaction-scoped advisory lock, so that it is idempotent and
 * safe to run from many processes at once (two concurrent CREATE TABLE IF NOT EXISTS can otherwise
 * both try to create the table's type and one fails). docs/stores.md shows the same statements.
 */
import type { PgClient } from './connection.js';

export const CONVERSATIONS_TABLE = 'footprint_conversation_messages';
export const CLAIMS_TABLE = 'footprint_checkpoint_claims';

/**
 * One message per row, at its position `seq` in the thread; run_id is the run that appended it, and
 * its first row keeps `carry`, what the run's instruments carried (RunSession.appending): a column
 * added to a table an earlier version made, by the same idempotent step.
 */
export const CONVERSATIONS_DDL = [
  `CREATE TABLE IF NOT EXISTS ${CONVERSATIONS_TABLE} (
    conversation_id text NOT NULL,
    seq integer NOT NULL CHECK (seq >= 0),
    run_id text NOT NULL,
    message json NOT NULL,
    appended_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, seq)
  )`,
  `CREATE INDEX IF NOT EXISTS ${CONVERSATIONS_TABLE}_run ON ${CONVERSATIONS_TABLE} (conversation_id, run_id)`,
  `ALTER TABLE ${CONVERSATIONS_TABLE} ADD COLUMN IF NOT EXISTS carry jsonb`,
];

/** One row per resumed checkpoint: the primary key is the claim. */
export const CLAIMS_DDL = [
  `CREATE TABLE IF NOT EXISTS ${CLAIMS_TABLE} (
    checkpoint_id text PRIMARY KEY,
    run_id text NOT NULL,
    runner_kind text NOT NULL,
    runner_id text NOT NULL,
    claimed_at timestamptz NOT NULL DEFAULT now()
  )`,
];

/** The advisory lock key ensureSchema() holds (any fixed 64-bit number; "footprin" in ASCII). */
const SCHEMA_LOCK = '7382958017011849582';

/** Runs `statements` in one transaction under the schema lock. */
export async function createTables(client: PgClient, statements: readonly string[], timeoutMs: number): Promise<void> {
  await inTransaction(client, timeoutMs, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    for (const statement of statements) await client.query(statement);
  });
}

/** BEGIN, the server's own bound on each statement (the store's timeoutMs), the work, COMMIT; ROLLBACK if the work throws. */
export async function inTransaction<T>(client: PgClient, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  await client.query('COMMIT');
  return result;
}
