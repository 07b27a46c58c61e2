/**
 * The typed failures of MCP tools. A tool call that fails becomes an error result the model reads
 * (the agent's tool runner reports a thrown error's `errorType` as error.type), and a connection that
 * cannot be made is a McpConnectError the app can catch. Each kind is one closed value, so error.type
 * on spans and metrics stays low-cardinality; a JSON-RPC error answer reports its code, as the
 * conventions ask.
 */

import { exportedView } from '../events/index.js';
import { isToolDeadline } from '../runtime/index.js';

/** error.type values of MCP calls besides a JSON-RPC error code ('-32602'). */
export const MCP_ERROR_TYPES = {
  /** No answer within the call's timeout (callTimeoutMs, or the agent's deadline for the tool call). */
  timeout: 'timeout',
  /** The connection closed (the server exited or was killed) before the answer came. */
  connectionClosed: 'connection_closed',
  /** The server answered with a CallToolResult whose isError is true. */
  toolError: 'tool_error',
  /** The answer was not a valid MCP result (the SDK's schema check failed). */
  malformedResponse: 'malformed_response',
  /** The tool is no longer in the server's list (tools/list_changed removed it). */
  toolRemoved: 'tool_removed',
  /** The run was cancelled during the call. */
  cancelled: 'cancelled',
  /** The server could not be started or reached. */
  unavailable: 'unavailable',
  /** The HTTP endpoint answered 401 or 403: the credentials of its URL or headers are missing or not taken (`status` says which). */
  unauthorized: 'unauthorized',
  /** A reply larger than one message may be (over stdio, the SDK's 10 MiB line limit); the SDK closes the connection. */
  tooLarge: 'too_large',
  /** Anything else the transport or SDK reported. */
  other: '_OTHER',
} as const;

/** A failed MCP call: `errorType` is the value on error.type (and the tool's error result). */
export class McpCallError extends Error {
  override readonly name = 'McpCallError';
  constructor(
    readonly errorType: string,
    message: string,
    readonly method: string,
    /** The HTTP status, when an HTTP endpoint answered with an error status. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The server could not be reached, started or initialised, or its tool list was unusable. */
export class McpConnectError extends Error {
  override readonly name = 'McpConnectError';
  constructor(
    readonly errorType: string,
    message: string,
    readonly server: string,
    /** The HTTP status, when an HTTP endpoint answered with an error status (401, 403: errorType unauthorized). */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** An error that already says its error.type (McpCallError, McpConnectError). */
export function isTyped(error: unknown): error is { errorType: string } {
  return typeof error === 'object' && error !== null && typeof (error as { errorType?: unknown }).errorType === 'string';
}

/** Socket errors of a peer that is not (or no longer) there. */
const PEER_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOENT', 'UND_ERR_SOCKET']);

/**
 * The JSON-RPC error codes reported as themselves on error.type (JSON-RPC's own and the ones the MCP
 * specification defines); a server's other codes are its inventions, reported as '_OTHER' (one
 * series, not one per code), the code itself staying on the span as rpc.response.status_code.
 */
const KNOWN_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32002, -32021, -32022, -32042]);

interface SdkLike {
  code?: unknown;
  message?: unknown;
  status?: unknown;
}

/** A classified failure: its error.type, the JSON-RPC code or HTTP status it came with, and its message. */
export interface Failure {
  type: string;
  /** The JSON-RPC error code, as a string. */
  code?: string;
  status?: number;
  message: string;
  /**
   * What the message may say on a span without content capture, when the message holds the server's
   * own text (a JSON-RPC error's message, an HTTP error body): that text is content.
   */
  withoutContent?: string;
}

/**
 * What a failure may say where it is exported (a span's status, a McpConnectError's message): its
 * (redacted) message under content capture, else what it says without the server's own words.
 */
export function exportedFailureText(failure: Failure, message: string, capture: boolean): string {
  const view = exportedView({ type: 'mcp.failure', payload: { message, summary: failure.withoutContent ?? message } }, capture).payload;
  return view.message ?? view.summary;
}

/** What a JSON-RPC error says without its message (the server's own words, content): its code. */
export function jsonRpcErrorSummary(code: unknown): string {
  return `JSON-RPC error ${String(code)} (its message is content: recorded under content capture only)`;
}

/**
 * The error.type of whatever an SDK call rejected with (`signal`: the tool's, aborted at its deadline or
 * with the run: timeout or cancelled): the JSON-RPC code of a ProtocolError (a known
 * one; '_OTHER' for an invented one), unauthorized for an HTTP 401/403, the closed value of an SdkError
 * code, or '_OTHER'. Read by shape, so it holds for both SDK majors.
 */
export function classify(error: unknown, signal?: AbortSignal): Failure {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkLike;
  const message = typeof e.message === 'string' ? e.message : String(error);
  // the tool's signal: aborted at the agent's deadline for the call (a timeout, as execute_tool says), or with the run
  if (signal?.aborted) return { type: isToolDeadline(signal.reason) ? MCP_ERROR_TYPES.timeout : MCP_ERROR_TYPES.cancelled, message };
  if (isTyped(error)) return { type: error.errorType, message, ...(typeof e.status === 'number' ? { status: e.status } : {}) };
  if (typeof e.code === 'number') {
    const type = KNOWN_CODES.has(e.code) ? String(e.code) : MCP_ERROR_TYPES.other;
    return { type, code: String(e.code), message, withoutContent: jsonRpcErrorSummary(e.code) };
  }
  if (typeof e.status === 'number') return httpFailure(e.status, message);
  switch (e.code) {
    case 'REQUEST_TIMEOUT':
      return { type: MCP_ERROR_TYPES.timeout, message };
    case 'CONNECTION_CLOSED':
    case 'NOT_CONNECTED':
    case 'SEND_FAILED':
      return { type: MCP_ERROR_TYPES.connectionClosed, message };
    case 'INVALID_RESULT':
      return { type: MCP_ERROR_TYPES.malformedResponse, message };
  }
  // A peer that went away: fetch's TypeError carries the socket error as its cause.
  const cause = (e as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string' && PEER_GONE.has(cause.code)) return { type: MCP_ERROR_TYPES.connectionClosed, message };
  return { type: MCP_ERROR_TYPES.other, message };
}

/** An HTTP error answer (the SDK's SdkHttpError): 401 and 403 are unauthorized, whose body is never kept. */
function httpFailure(status: number, message: string): Failure {
  const withoutContent = `HTTP ${status} (its body is content: recorded under content capture only)`;
  if (status === 401 || status === 403) {
    return { type: MCP_ERROR_TYPES.unauthorized, status, message: `HTTP ${status} (not authorized: check the credentials of its URL or headers)` };
  }
  return { type: MCP_ERROR_TYPES.other, status, message: `HTTP ${status}: ${message}`, withoutContent };
}
