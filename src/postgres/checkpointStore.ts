/**
 * Checkpoint claims in PostgreSQL: a checkpoint resumes at most once across every process that
 * shares the database. A claim is one INSERT ... ON CONFLICT DO NOTHING on the claims table's primary
 * key, so of two concurrent claims of one id exactly one inserts a row (and gets true). A claim the
 * database cannot answer in time throws CheckpointError 'store_failed': the resume is refused and the
 * work after the pause does not run.
 *
 *   const checkpoints = new PostgresCheckpointStore({ pool });
 *   await checkpoints.ensureSchema();
 *   await agent.resume(checkpoint, 'yes', { checkpointStore: checkpoints });
 */
import { CheckpointError, type CheckpointStore } from '../runtime/index.js';
import { openDatabase, type Database, type PostgresStoreOptions } from './connection.js';
import { CLAIMS_DDL, CLAIMS_TABLE, createTables } from './schema.js';
import { storeCall } from './storeCall.js';

export class PostgresCheckpointStore implements CheckpointStore {
  private readonly db: Database;

  constructor(options: PostgresStoreOptions) {
    this.db = openDatabase('PostgresCheckpointStore', options);
  }

  /** Creates the claims table if it is missing; safe to call from many processes at once. */
  ensureSchema(): Promise<void> {
    return storeCall(this.db, {
      call: 'ensure_schema',
      operation: 'CREATE TABLE',
      collection: CLAIMS_TABLE,
      work: (client) => createTables(client, CLAIMS_DDL, this.db.timeoutMs),
      fail: (failure, cause) => new CheckpointError(`the checkpoint claims table could not be created (${failure.code}: ${failure.message})`, 'store_failed', { cause }),
    });
  }

  claim(id: string, checkpoint: { runId: string; runner: { kind: string; id: string } }): Promise<boolean> {
    return storeCall(this.db, {
      call: 'claim',
      operation: 'INSERT',
      collection: CLAIMS_TABLE,
      work: async (client) => {
        const inserted = await client.query(
          `INSERT INTO ${CLAIMS_TABLE} (checkpoint_id, run_id, runner_kind, runner_id) VALUES ($1, $2, $3, $4) ON CONFLICT (checkpoint_id) DO NOTHING`,
          [id, checkpoint.runId, checkpoint.runner.kind, checkpoint.runner.id],
        );
        return inserted.rowCount === 1;
      },
      fail: (failure, cause) =>
        new CheckpointError(`checkpoint ${id}: PostgreSQL could not claim it (${failure.code}: ${failure.message})`, 'store_failed', { cause }),
    });
  }

  /** Ends the pool if the store made it from settings; a pool the app passed stays the app's. */
  async close(): Promise<void> {
    if (this.db.owned) await this.db.pool.end();
  }
}
