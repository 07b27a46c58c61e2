/**
 * The attribute keys and span names of the GenAI conventions' MCP page (docs/mcp.md cites it): the
 * MCP client and server spans and the mcp.*.operation.duration histograms. Every key is taken from
 * otel/encoding/semconv.ts, where all emitted names live (stable ones come from
 * @opentelemetry/semantic-conventions through it); this file adds the MCP methods and span names.
 */
import { boundString, MAX_NAME, semconv } from '../otel/index.js';

/** Stable keys, as @opentelemetry/semantic-conventions exports them (re-exported by semconv.ts). */
export const { ATTR_CLIENT_ADDRESS, ATTR_CLIENT_PORT, ATTR_ERROR_TYPE, ATTR_NETWORK_PROTOCOL_NAME, ATTR_NETWORK_TRANSPORT, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } = semconv;

/** The MCP page's keys and the bridge's GenAI keys, from otel/encoding/semconv.ts (every emitted name lives there). */
export const {
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_SESSION_ID,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_FOOTPRINT_MCP_SERVER,
  ATTR_FOOTPRINT_MCP_TOOLS_REFUSED,
  OP_EXECUTE_TOOL,
} = semconv;

export const METHOD_TOOLS_CALL = 'tools/call';
export const METHOD_TOOLS_LIST = 'tools/list';
export const METHOD_INITIALIZE = 'initialize';
/** The 2026-07-28 revision's handshake, in place of initialize (stateless: no session). */
export const METHOD_SERVER_DISCOVER = 'server/discover';
/** The stateless MCP revision connectMcp can pin (its `revision` option). */
export const STATELESS_REVISION = '2026-07-28';
/** Where a 2026-07-28 request's envelope names its protocol version (the SDK's PROTOCOL_VERSION_META_KEY). */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const NOTIFICATION_CANCELLED = 'notifications/cancelled';

/**
 * `{mcp.method.name} {target}`, the target being the tool for tools/call; each part cut to the
 * bridge's span-name bound (a peer names both: a 10,000-character tool name stays out of the name).
 */
export function mcpSpanName(method: string, toolName?: string): string {
  const bounded = boundString(method, MAX_NAME);
  return toolName ? `${bounded} ${boundString(toolName, MAX_NAME)}` : bounded;
}
