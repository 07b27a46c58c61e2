/**
 * One store call: a CLIENT span with the database conventions (db.system.name postgresql,
 * db.operation.name, db.collection.name, db.namespace, server.address, server.port; no statement
 * text), under the active context (the run's span when a run calls the store), around a connection
 * checked out of the pool and the work done on it, all bounded by the store's timeoutMs. A call that
 * outlives its bound rejects at the bound; its connection is closed (the server rolls its transaction
 * back) and a connection that arrives late goes back to the pool.
 */
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { semconv } from '../otel/index.js';
import type { Database, PgClient } from './connection.js';
import { classifyFailure, DeadlineExceeded, type StoreFailure } from './failures.js';

// The names on the stores' spans, from the bridge's one list (otel/encoding/semconv.ts): the database
// and server keys are the stable ones of @opentelemetry/semantic-conventions, the store method footprint.store.call.
const {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_SUMMARY,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_FOOTPRINT_STORE_CALL,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} = semconv;

export const POSTGRES_INSTRUMENTATION = 'footprint-otel.postgres';

export interface StoreCall<T> {
  /** The store method: load, append, claim, ensure_schema. */
  call: string;
  /** The SQL verb of the statement that does the call's work (db.operation.name). */
  operation: string;
  /** The table (db.collection.name). */
  collection: string;
  /** More attributes of the call (gen_ai.conversation.id). */
  attributes?: Attributes;
  signal?: AbortSignal;
  work(client: PgClient): Promise<T>;
  /** The typed error a failure becomes (ConversationStoreError, CheckpointError). */
  fail(failure: StoreFailure, cause: unknown): Error;
}

let cached: { provider: unknown; tracer: Tracer } | undefined;

/** The tracer of the global provider, taken at each call (an SDK started after the store still gets its spans). */
function tracer(): Tracer {
  const provider = trace.getTracerProvider();
  if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer(POSTGRES_INSTRUMENTATION) };
  return cached.tracer;
}

/** Runs `call` on a pooled connection, under its client span, within the database's timeoutMs. */
export async function storeCall<T>(db: Database, call: StoreCall<T>): Promise<T> {
  call.signal?.throwIfAborted();
  const summary = `${call.operation} ${call.collection}`;
  const attributes: Attributes = {
    [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
    [ATTR_DB_OPERATION_NAME]: call.operation,
    [ATTR_DB_COLLECTION_NAME]: call.collection,
    [ATTR_DB_QUERY_SUMMARY]: summary,
    [ATTR_DB_NAMESPACE]: db.server.database,
    [ATTR_SERVER_ADDRESS]: db.server.address,
    [ATTR_SERVER_PORT]: db.server.port,
    [ATTR_FOOTPRINT_STORE_CALL]: call.call,
    ...call.attributes,
  };
  const span = tracer().startSpan(summary, { kind: SpanKind.CLIENT, attributes }, context.active());
  try {
    const result = await bounded(db, call);
    span.end();
    return result;
  } catch (error) {
    if (call.signal?.aborted && error === call.signal.reason) {
      span.setAttribute(ATTR_ERROR_TYPE, 'cancelled');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'cancelled' });
      span.end();
      throw error;
    }
    const failure = isTyped(error) ? undefined : classifyFailure(error);
    const typed = failure === undefined ? (error as Error) : call.fail(failure, error);
    if (failure?.sqlState !== undefined) span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, failure.sqlState);
    span.setAttribute(ATTR_ERROR_TYPE, failure?.code ?? (typed as { code?: string }).code ?? typed.name);
    span.setStatus({ code: SpanStatusCode.ERROR, message: typed.message });
    span.end();
    throw typed;
  }
}

/** A failure the work itself decided (a conflict, a malformed row): already the typed error the caller gets. */
const TYPED = Symbol('footprint-otel.postgres.typed');

export function typedFailure<E extends Error>(error: E): E {
  Object.defineProperty(error, TYPED, { value: true, enumerable: false });
  return error;
}

function isTyped(error: unknown): error is Error {
  return error instanceof Error && (error as unknown as Record<symbol, unknown>)[TYPED] === true;
}

/** Connects and runs the work, settling once: with its result, its failure, the deadline or the signal. */
function bounded<T>(db: Database, call: StoreCall<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let client: PgClient | undefined;
    const onAbort = () => settle(call.signal!.reason, true);
    const timer = setTimeout(() => settle(new DeadlineExceeded(db.timeoutMs), true), db.timeoutMs);
    call.signal?.addEventListener('abort', onAbort, { once: true });

    function settle(error: unknown, failed: boolean, value?: T): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
      // A connection that failed or was cut off mid-call may be mid-transaction: closed, never pooled again.
      client?.release(failed ? (error instanceof Error ? error : true) : undefined);
      client = undefined;
      if (failed) reject(error);
      else resolve(value as T);
    }

    db.pool.connect().then(
      (connected) => {
        if (settled) {
          connected.release();
          return;
        }
        client = connected;
        call.work(connected).then(
          (value) => settle(undefined, false, value),
          (error: unknown) => settle(error, true),
        );
      },
      (error: unknown) => settle(error, true),
    );
  });
}
