/**
 * What a failed store call was, read from what pg threw: the database could not be reached or went
 * away ('unavailable'), did not answer in time ('timeout'), or refused a value ('malformed'). Any
 * other database error leaves the store unable to serve the call, so it is 'unavailable' too, with its
 * SQLSTATE (db.response.status_code) and message kept: a missing table says to run ensureSchema().
 */
export type StoreFailureCode = 'unavailable' | 'timeout' | 'malformed';

export interface StoreFailure {
  code: StoreFailureCode;
  /** The SQLSTATE the server answered with, when it answered. */
  sqlState?: string;
  message: string;
}

/** The store's own deadline passed (timeoutMs): the call's connection is closed, its transaction rolled back. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** Socket errors of a server that is down, unreachable or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', 'ENOENT', 'ETIMEDOUT']);

/** SQLSTATEs of a statement stopped for time: statement_timeout (57014), lock_timeout (55P03). */
const TIMEOUT_STATES = new Set(['57014', '55P03']);

export function classifyFailure(error: unknown): StoreFailure {
  if (error instanceof DeadlineExceeded) return { code: 'timeout', message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code)) {
    if (TIMEOUT_STATES.has(code)) return { code: 'timeout', sqlState: code, message };
    // class 22: data exception (a value the column cannot hold, e.g. a NUL character in text).
    if (code.startsWith('22')) return { code: 'malformed', sqlState: code, message };
    return { code: 'unavailable', sqlState: code, message };
  }
  if (code !== undefined && NETWORK_CODES.has(code)) return { code: 'unavailable', message };
  // pg-pool's connectionTimeoutMillis
  if (/timeout exceeded when trying to connect/i.test(message)) return { code: 'timeout', message };
  return { code: 'unavailable', message };
}
