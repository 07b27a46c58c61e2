/**
 * A real PostgreSQL 15 for one test file: Debian's server binaries (initdb, pg_ctl under
 * /usr/lib/postgresql/15/bin, or FOOTPRINT_PG_BIN), a fresh cluster in a scratch folder, on 127.0.0.1
 * and a free port, trust authentication, fsync off. PostgreSQL refuses to run as root: as root the
 * binaries run as the `postgres` user (runuser), in a folder that user owns. The server is stopped by
 * its own data folder (pg_ctl stop -D, which signals the pid in its postmaster.pid) after the file's
 * tests, and "stopped" is judged by pg_ctl status and the port, never the process table (a stopped
 * postmaster can linger as a zombie where the container's first process reaps no children).
 *
 * Missing or unable to start: under CI=true (or FOOTPRINT_REQUIRE_BACKENDS=1) the file fails; elsewhere
 * its suite is skipped with the reason in the suite's name (describeWithPostgres).
 */
import { execFile } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { backendsRequired } from './backends.js';

const run = promisify(execFile);

export const POSTGRES_BIN = process.env.FOOTPRINT_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PostgresServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly user: 'postgres';
  readonly database: 'postgres';
  /** Connection settings for pg. */
  readonly settings: { host: string; port: number; user: string; database: string };
  /** A pool on the server with an error listener (pg requires one: idle connections fail when the server stops). */
  pool(options?: pg.PoolConfig): pg.Pool;
  /** Stops the server (fast shutdown: sessions are ended) and waits until the port is closed. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  running(): Promise<boolean>;
}

/** Why PostgreSQL cannot run here, or undefined when its binaries are there. */
function missing(bin: string): string | undefined {
  for (const binary of ['initdb', 'pg_ctl']) {
    try {
      accessSync(path.join(bin, binary), constants.X_OK);
    } catch {
      return `PostgreSQL 15 not found (${path.join(bin, binary)}; apt-get install postgresql-15, or FOOTPRINT_PG_BIN)`;
    }
  }
  return undefined;
}

/** Runs a server binary, as the postgres user when this process is root. */
function binary(name: string, args: string[]): Promise<{ stdout: string }> {
  const file = path.join(POSTGRES_BIN, name);
  const asRoot = process.getuid?.() === 0;
  return run(asRoot ? 'runuser' : file, asRoot ? ['-u', 'postgres', '--', file, ...args] : args, { timeout: 60_000, env: { ...process.env, LC_ALL: 'C' } });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Starts a server for this test file (stopped and removed after it). Returns the server, or the reason
 * it cannot run (skipped elsewhere; under CI this throws instead). `bin` and `required` stand in for
 * FOOTPRINT_PG_BIN and CI in the harness's own test.
 */
export async function startPostgres(options: { bin?: string; required?: boolean } = {}): Promise<PostgresServer | string> {
  let problem = missing(options.bin ?? POSTGRES_BIN);
  let server: PostgresServer | undefined;
  if (problem === undefined) {
    try {
      server = await launch();
    } catch (error) {
      problem = `PostgreSQL 15 could not start: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (server) return server;
  if (options.required ?? backendsRequired()) throw new Error(`${problem} (CI=true: the PostgreSQL tests need it)`);
  return problem!;
}

async function launch(): Promise<PostgresServer> {
  const folder = mkdtempSync(path.join(tmpdir(), 'fp-postgres-'));
  const data = path.join(folder, 'data');
  const log = path.join(folder, 'server.log');
  const pools: pg.Pool[] = [];
  if (process.getuid?.() === 0) {
    const { uid, gid } = await postgresUser();
    chownSync(folder, uid, gid);
  }
  const port = await freePort();
  const settings = { host: '127.0.0.1', port, user: 'postgres', database: 'postgres' };
  const pgctl = (args: string[]) => binary('pg_ctl', ['-D', data, ...args]);
  const start = async () => {
    // -k: the Unix socket in the scratch folder (the default folder may not exist or be writable).
    await pgctl(['-l', log, '-w', '-t', '30', '-o', `-h 127.0.0.1 -p ${port} -k ${folder} -F -c fsync=off -c full_page_writes=off`, 'start']).catch((error: Error) => {
      throw new Error(`${error.message}\n${safeRead(log)}`);
    });
  };
  const running = async () => (await pgctl(['status']).then(() => true, () => false)) || (await portOpen(port));
  const stop = async () => {
    await pgctl(['-m', 'fast', '-w', '-t', '30', 'stop']).catch(() => undefined);
    for (let waited = 0; (await running()) && waited < 30_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  };
  await binary('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  await start();
  afterAll(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
    await stop();
    rmSync(folder, { recursive: true, force: true });
  });
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    settings,
    pool(options = {}) {
      const pool = new pg.Pool({ ...settings, ...options });
      pool.on('error', () => {});
      pools.push(pool);
      return pool;
    },
    stop,
    start,
    running,
  };
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A suite that needs the server: skipped, with the reason in its name, when there is none. */
export function describeWithPostgres(name: string, server: PostgresServer | string, body: (server: PostgresServer) => void): void {
  if (typeof server === 'string') describe.skip(`${name} (skipped: ${server})`, () => {});
  else describe(name, () => body(server));
}
