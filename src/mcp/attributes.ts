/**
 * The attribute keys and span names of the GenAI conventions' MCP page (docs/mcp.md cites it): the
 * MCP client and server spans and the mcp.*.operation.duration histograms. Stable keys come from
 * @opentelemetry/semantic-conventions; the MCP and JSON-RPC keys are still Development there, so they
 * are written out here, each marked @experimental; the GenAI keys are the bridge's own.
 */
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_CLIENT_PORT,
  ATTR_ERROR_TYPE,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions';
import { boundString, MAX_NAME, semconv } from '../otel/index.js';

export const ERROR_TYPE = ATTR_ERROR_TYPE;
export const SERVER_ADDRESS = ATTR_SERVER_ADDRESS;
export const SERVER_PORT = ATTR_SERVER_PORT;
export const CLIENT_ADDRESS = ATTR_CLIENT_ADDRESS;
export const CLIENT_PORT = ATTR_CLIENT_PORT;
export const NETWORK_TRANSPORT = ATTR_NETWORK_TRANSPORT;
export const NETWORK_PROTOCOL_NAME = ATTR_NETWORK_PROTOCOL_NAME;

/** The request or notification method, e.g. tools/call. @experimental */
export const MCP_METHOD_NAME = 'mcp.method.name';
/** The MCP session (Streamable HTTP's Mcp-Session-Id). @experimental */
export const MCP_SESSION_ID = 'mcp.session.id';
/** The negotiated MCP protocol version, e.g. 2025-11-25. @experimental */
export const MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
/** The JSON-RPC id of the request, as a string. @experimental */
export const JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
/** The JSON-RPC error code of an error response, as a string. @experimental */
export const RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';
/** The GenAI keys of the bridge (otel/encoding/semconv.ts), the same on MCP spans. @experimental */
export const { GEN_AI_OPERATION_NAME, GEN_AI_TOOL_NAME, GEN_AI_TOOL_CALL_ARGUMENTS, GEN_AI_TOOL_CALL_RESULT, OP_EXECUTE_TOOL } = semconv;

/** The tools of a tools/list that are not offered, each `name: why`. */
export const { FP_MCP_TOOLS_REFUSED: MCP_TOOLS_REFUSED } = semconv;

export const METHOD_TOOLS_CALL = 'tools/call';
export const METHOD_TOOLS_LIST = 'tools/list';
export const METHOD_INITIALIZE = 'initialize';
export const NOTIFICATION_CANCELLED = 'notifications/cancelled';

/**
 * `{mcp.method.name} {target}`, the target being the tool for tools/call; each part cut to the
 * bridge's span-name bound (a peer names both: a 10,000-character tool name stays out of the name).
 */
export function mcpSpanName(method: string, toolName?: string): string {
  const bounded = boundString(method, MAX_NAME);
  return toolName ? `${bounded} ${boundString(toolName, MAX_NAME)}` : bounded;
}
