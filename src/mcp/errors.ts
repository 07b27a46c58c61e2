/**
 * The typed failures of MCP tools. A tool call that fails becomes an error result the model reads
 * (the agent's tool runner reports a thrown error's `errorType` as error.type), and a connection that
 * cannot be made is a McpConnectError the app can catch. Each kind is one closed value, so error.type
 * on spans and metrics stays low-cardinality; a JSON-RPC error answer reports its code, as the
 * conventions ask.
 */

/** error.type values of MCP calls besides a JSON-RPC error code ('-32602'). */
export const MCP_ERROR_TYPES = {
  /** No answer within the call's timeout. */
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

interface SdkLike {
  code?: unknown;
  message?: unknown;
}

/**
 * The error.type of whatever an SDK call rejected with: the JSON-RPC code of a ProtocolError, the
 * closed value of an SdkError code, or '_OTHER'. Read by shape, so it holds for both SDK majors.
 */
export function classify(error: unknown, signal?: AbortSignal): { type: string; code?: string; message: string } {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkLike;
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (signal?.aborted) return { type: MCP_ERROR_TYPES.cancelled, message };
  if (isTyped(error)) return { type: error.errorType, message };
  if (typeof e.code === 'number') return { type: String(e.code), code: String(e.code), message };
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
