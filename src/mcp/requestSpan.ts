/**
 * What the MCP client span (clientSpan.ts) and the MCP server span (server.ts) of one request share,
 * so both sides say the same thing the same way: the attributes a span opens with, the session and
 * version it carries, its duration histogram's low-cardinality attributes, and how it ends (error.type
 * and status ERROR on a failure, then the duration recorded).
 */
import { SpanStatusCode, type Attributes, type AttributeValue, type Histogram, type Span } from '@opentelemetry/api';
import { METRIC_ATTRIBUTES } from '../otel/index.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_TRANSPORT,
  OP_EXECUTE_TOOL,
} from './attributes.js';
import { exportedView, now } from '../events/index.js';
import { boundedContent } from './content.js';

/** The status message of a tools/call whose result says isError. */
export const TOOL_ERROR_MESSAGE = 'the tool reported an error (isError)';

/** mcp.method.name, and for a tools/call the tool: gen_ai.tool.name, execute_tool, its arguments as their exported view holds them. */
export function requestAttributes(method: string, toolName: string | undefined, capture: boolean, args: unknown): Attributes {
  const attributes: Attributes = { [ATTR_MCP_METHOD_NAME]: method };
  if (toolName !== undefined) {
    attributes[ATTR_GEN_AI_TOOL_NAME] = toolName;
    attributes[ATTR_GEN_AI_OPERATION_NAME] = OP_EXECUTE_TOOL;
    const shown = exportedView({ type: 'mcp.tool_call', payload: { arguments: args } }, capture).payload.arguments;
    if (shown !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = boundedContent(shown);
  }
  return attributes;
}

/** Adds mcp.session.id and mcp.protocol.version, those known, to `attributes` (one object per span, built in place). */
export function addSession(attributes: Attributes, sessionId: string | undefined, protocolVersion: string | undefined): Attributes {
  if (sessionId !== undefined) attributes[ATTR_MCP_SESSION_ID] = sessionId;
  if (protocolVersion !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = protocolVersion;
  return attributes;
}

/** The mcp.*.operation.duration attributes both sides record: method, server, transport, and the tool. */
export function durationAttributes(method: string, server: string, transport: AttributeValue | undefined, toolName: string | undefined): Attributes {
  const metric: Attributes = { [ATTR_MCP_METHOD_NAME]: method, [METRIC_ATTRIBUTES.mcpServer]: server, [ATTR_NETWORK_TRANSPORT]: transport };
  if (toolName !== undefined) metric[ATTR_GEN_AI_TOOL_NAME] = toolName;
  return metric;
}

/**
 * Ends the span (failed: error.type and status ERROR, on the metric too) and records the duration since
 * `started`, a reading of the project's clock (events/clock.ts). `explicitEnd` for a span started at an
 * explicit time (the client's): it ends at the same reading the duration is taken from. The server's
 * spans keep the SDK's clock, the one the server's own child spans use.
 */
export function endRequestSpan(span: Span, histogram: Histogram, started: number, metric: Attributes, errorType: string | undefined, message?: string, explicitEnd = false): void {
  if (errorType !== undefined) {
    span.setAttribute(ATTR_ERROR_TYPE, errorType);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
    metric[ATTR_ERROR_TYPE] = errorType;
  }
  const ended = now();
  span.end(explicitEnd ? ended : undefined);
  histogram.record((ended - started) / 1000, metric);
}
