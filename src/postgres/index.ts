/**
 * footprint-otel/postgres: conversations and checkpoint claims that outlive the process, shared by
 * every process on one PostgreSQL database.
 *
 *   const pool = new pg.Pool({ connectionString });  pool.on('error', log);
 *   const conversations = new PostgresConversationStore({ pool });
 *   const checkpoints = new PostgresCheckpointStore({ pool });
 *   await conversations.ensureSchema(); await checkpoints.ensureSchema();   // once, at deploy or start
 *
 * On the `pg` client (8.x, an optional peer): nothing here is imported by the package's main entry.
 * Each store call is a database CLIENT span under the active context. Depends on runtime/ (the store
 * interfaces and their errors), otel/ (the names) and @opentelemetry/api. See docs/stores.md.
 */
export { PostgresConversationStore } from './conversationStore.js';
export { PostgresCheckpointStore } from './checkpointStore.js';
export { DEFAULT_STORE_TIMEOUT_MS, type PgClient, type PgPool, type PostgresConnectionSettings, type PostgresStoreOptions } from './connection.js';
export { CLAIMS_TABLE, CONVERSATIONS_TABLE } from './schema.js';
