/**
 * Conversations in PostgreSQL: one row per message, keyed by (conversation_id, seq), `seq` being the
 * message's position in the thread. A run's append is one transaction: a run already appended at
 * this position is a no-op (a retry after a lost reply); a run already appended elsewhere, or a thread
 * whose length is not the position the run loaded, is a ConversationConflictError; and if another run
 * inserts at the same position at the same moment, the primary key lets one of them in and the other
 * gets the conflict. A database that is down or slow fails the call within timeoutMs with
 * ConversationStoreError 'unavailable' or 'timeout', having written nothing (the transaction never
 * committed) or everything (the commit's reply was lost: appending again is the no-op above).
 *
 *   const conversations = new PostgresConversationStore({ pool });
 *   await conversations.ensureSchema();
 */
import type { Attributes } from '@opentelemetry/api';
import { ConversationConflictError, ConversationStoreError, type ConversationStore, type StoredConversation } from '../runtime/index.js';
import { openDatabase, type Database, type PgClient, type PostgresStoreOptions } from './connection.js';
import type { StoreFailure } from './failures.js';
import { checkedAppend, readMessage, type Append, type Message } from './messages.js';
import { ATTR_GEN_AI_CONVERSATION_ID } from './names.js';
import { CONVERSATIONS_DDL, CONVERSATIONS_TABLE as TABLE, createTables, inTransaction } from './schema.js';
import { storeCall, typedFailure } from './storeCall.js';

/** The unique-violation SQLSTATE: another insert took the position first. */
const UNIQUE_VIOLATION = '23505';

export class PostgresConversationStore implements ConversationStore {
  private readonly db: Database;

  constructor(options: PostgresStoreOptions) {
    this.db = openDatabase('PostgresConversationStore', options);
  }

  /** Creates the messages table and its index if they are missing; safe to call from many processes at once. */
  ensureSchema(): Promise<void> {
    return storeCall(this.db, {
      call: 'ensure_schema',
      operation: 'CREATE TABLE',
      collection: TABLE,
      work: (client) => createTables(client, CONVERSATIONS_DDL, this.db.timeoutMs),
      fail: (failure, cause) => storeError('the conversation table could not be created', failure, cause),
    });
  }

  load(conversationId: string, options: { signal?: AbortSignal } = {}): Promise<StoredConversation> {
    if (typeof conversationId !== 'string' || conversationId === '') return Promise.reject(malformedInput('the conversation id must be a non-empty string'));
    return storeCall(this.db, {
      call: 'load',
      operation: 'SELECT',
      collection: TABLE,
      attributes: conversationAttributes(conversationId),
      signal: options.signal,
      work: async (client) => {
        const { rows } = await client.query(`SELECT seq, run_id, message, carry FROM ${TABLE} WHERE conversation_id = $1 ORDER BY seq`, [conversationId]);
        const messages: Message[] = [];
        const runs: { runId: string; messages: number; carry: Record<string, unknown> }[] = [];
        for (const row of rows as { seq: number; run_id: string; message: unknown; carry: unknown }[]) {
          const message = readMessage(row.message);
          if (row.seq !== messages.length || message === undefined) {
            throw typedFailure(
              new ConversationStoreError(`conversation ${conversationId}: the stored row at position ${row.seq} is not the next message of the thread`, 'malformed'),
            );
          }
          messages.push(message);
          // A run's rows are consecutive: a new run_id starts its entry (its first row holds the carry).
          const last = runs[runs.length - 1];
          if (last?.runId === row.run_id) last.messages++;
          else runs.push({ runId: row.run_id, messages: 1, carry: isObject(row.carry) ? row.carry : {} });
        }
        return { messages, runs };
      },
      fail: (failure, cause) => storeError(`conversation ${conversationId} could not be loaded`, failure, cause),
    });
  }

  async append(
    conversationId: string,
    entry: { runId: string; after: number; messages: readonly Message[]; carry?: Record<string, unknown> },
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    const append = checkedAppend(conversationId, entry);
    if (typeof append === 'string') throw malformedInput(append);
    if (append.rows.length === 0) return;
    await storeCall(this.db, {
      call: 'append',
      operation: 'INSERT',
      collection: TABLE,
      attributes: conversationAttributes(conversationId),
      signal: options.signal,
      work: (client) => this.write(client, append),
      fail: (failure, cause) => storeError(`conversation ${conversationId}: run ${append.runId}'s messages could not be appended`, failure, cause),
    });
  }

  /** Ends the pool if the store made it from settings; a pool the app passed stays the app's. */
  async close(): Promise<void> {
    if (this.db.owned) await this.db.pool.end();
  }

  private async write(client: PgClient, append: Append): Promise<void> {
    try {
      await inTransaction(client, this.db.timeoutMs, async () => {
        const { rows } = await client.query(
          `SELECT
             (SELECT min(seq) FROM ${TABLE} WHERE conversation_id = $1 AND run_id = $2) AS run_first,
             (SELECT count(*)::int FROM ${TABLE} WHERE conversation_id = $1 AND run_id = $2) AS run_count,
             (SELECT coalesce(max(seq) + 1, 0) FROM ${TABLE} WHERE conversation_id = $1) AS length`,
          [append.conversationId, append.runId],
        );
        const found = rows[0] as { run_first: number | null; run_count: number; length: number };
        if (found.run_count > 0) {
          if (found.run_first === append.after && found.run_count === append.rows.length) return;
          throw conflict(append, `run ${append.runId} already appended ${found.run_count} messages at position ${found.run_first}`);
        }
        if (found.length !== append.after) throw conflict(append, `the thread holds ${found.length} messages, not the ${append.after} the run loaded`);
        await client.query(
          `INSERT INTO ${TABLE} (conversation_id, seq, run_id, message, carry)
           SELECT $1, $2::int + (m.ord - 1)::int, $3, m.message, CASE WHEN m.ord = 1 THEN $5::jsonb END FROM unnest($4::json[]) WITH ORDINALITY AS m(message, ord)`,
          [append.conversationId, append.after, append.runId, append.rows, append.carry],
        );
      });
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      // Another append took the position between the check and the insert: this run's own retry, or another run.
      const { rows } = await client.query(`SELECT run_id FROM ${TABLE} WHERE conversation_id = $1 AND seq = $2`, [append.conversationId, append.after]);
      if ((rows[0] as { run_id?: string } | undefined)?.run_id === append.runId) return;
      throw conflict(append, 'another run appended at the same position first');
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function conversationAttributes(conversationId: string): Attributes {
  return { [ATTR_GEN_AI_CONVERSATION_ID]: conversationId };
}

function conflict(append: Append, why: string): ConversationConflictError {
  return typedFailure(
    new ConversationConflictError(append.conversationId, append.after, `run ${append.runId}: ${why}`),
  );
}

function malformedInput(why: string): ConversationStoreError {
  return new ConversationStoreError(why, 'malformed');
}

function storeError(what: string, failure: StoreFailure, cause: unknown): ConversationStoreError {
  const state = failure.sqlState === undefined ? '' : ` (SQLSTATE ${failure.sqlState})`;
  return new ConversationStoreError(`${what}: ${failure.code}${state}: ${failure.message}`, failure.code, { cause });
}
