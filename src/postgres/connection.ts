/**
 * The database a store talks to: a `pg.Pool` the application passes (it keeps owning it), or
 * connection settings the store makes its own pool from (and ends on close()). The pool is typed by
 * the little of it the stores use, so the entry's types need no @types/pg; a `pg.Pool` fits it.
 * Also where the span attributes that name the server (server.address, server.port, db.namespace)
 * are read, once, from the pool's settings with pg's own defaults.
 */
import pg from 'pg';
import { ConfigError } from '../runtime/index.js';

/** A checked-out connection: what the stores call on a `pg.PoolClient`. */
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  /** Back to the pool; with an error (or true) the connection is closed instead. */
  release(destroy?: Error | boolean): void;
}

/** What the stores call on a `pg.Pool`. */
export interface PgPool {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  /** pg-pool keeps the settings it was made with here: read for server.address, server.port, db.namespace. */
  readonly options?: object;
}

/** The pg settings the stores read (the rest pass through to `new pg.Pool(settings)`). */
export interface PostgresConnectionSettings {
  host?: string;
  port?: number | string;
  database?: string;
  user?: string;
  password?: string;
  connectionString?: string;
  /** Most connections the store's own pool opens (pg's default: 10). */
  max?: number;
  [setting: string]: unknown;
}

export interface PostgresStoreOptions {
  /** A pg.Pool shared with the app (add a pool.on('error') listener: pg requires one), or settings for a pool the store makes and closes. */
  pool: PgPool | PostgresConnectionSettings;
  /**
   * The longest a store call may take, connecting included (default 5000 ms): a database that is down
   * or slow fails the call with a typed error ('unavailable' or 'timeout') within it. The server is
   * told the same bound (statement_timeout), so a statement it could not finish is rolled back.
   */
  timeoutMs?: number;
}

export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

/** The attributes naming the server, as pg resolves them: settings, then the connection string, then PG* variables, then pg's defaults. */
export interface ServerAttributes {
  address: string;
  port: number;
  database: string;
}

/** A store's database: the pool, whether the store owns it, the time bound, and the server's names. */
export interface Database {
  readonly pool: PgPool;
  readonly owned: boolean;
  readonly timeoutMs: number;
  readonly server: ServerAttributes;
}

export function openDatabase(owner: string, options: PostgresStoreOptions): Database {
  if (typeof options !== 'object' || options === null || typeof options.pool !== 'object' || options.pool === null) {
    throw new ConfigError(`${owner}: pass { pool } (a pg.Pool or pg connection settings)`, { field: 'pool' });
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2_147_483_647) {
    throw new ConfigError(`${owner}: timeoutMs must be a whole number of milliseconds from 1 to 2147483647, got ${String(timeoutMs)}`, { field: 'timeoutMs' });
  }
  const given = options.pool;
  const isPool = typeof (given as PgPool).connect === 'function';
  const pool: PgPool = isPool ? (given as PgPool) : ownPool(given as PostgresConnectionSettings);
  return { pool, owned: !isPool, timeoutMs, server: serverOf((pool.options ?? {}) as Record<string, unknown>) };
}

/** A pool made from settings: its idle connections' errors (the server went away) are the next call's failure, never the process's. */
function ownPool(settings: PostgresConnectionSettings): PgPool {
  const pool = new pg.Pool(settings as pg.PoolConfig);
  pool.on('error', () => {});
  return pool;
}

function serverOf(settings: Record<string, unknown>): ServerAttributes {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  let url: URL | undefined;
  try {
    url = text(settings.connectionString) === undefined ? undefined : new URL(settings.connectionString as string);
  } catch {
    url = undefined;
  }
  const env = process.env;
  const user = text(settings.user) ?? text(url && decodeURIComponent(url.username)) ?? env.PGUSER ?? env.USER ?? 'postgres';
  const address = text(settings.host) ?? text(url?.hostname) ?? env.PGHOST ?? 'localhost';
  const port = Number(settings.port ?? text(url?.port) ?? env.PGPORT ?? 5432);
  const database = text(settings.database) ?? text(url && decodeURIComponent(url.pathname.slice(1))) ?? env.PGDATABASE ?? user;
  return { address, port: Number.isInteger(port) ? port : 5432, database };
}
