/**
 * The MCP client span of one request (kind CLIENT, `{mcp.method.name} {tool}`), under whatever span
 * is active (a tool's execute_tool span), active while the request is sent so that the transport
 * wrapper (clientTransport.ts) injects its context into params._meta and stamps the JSON-RPC id on
 * it. It ends once, with the call's outcome: a result (error.type tool_error when it says isError),
 * or the typed failure the rejection classifies as; mcp.client.operation.duration records the same.
 * Its start and end are read from the project's clock (events/clock.ts), as its execute_tool parent's
 * are: the SDK's default start is Date.now(), whole milliseconds on another clock, which could put the
 * client span's start before its parent's.
 */
import { context, createContextKey, SpanKind, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { ATTR_GEN_AI_TOOL_CALL_RESULT, ATTR_MCP_PROTOCOL_VERSION, mcpSpanName, METHOD_INITIALIZE, METHOD_SERVER_DISCOVER, ATTR_NETWORK_TRANSPORT, ATTR_RPC_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from './attributes.js';
import { exportedView, now } from '../events/index.js';
import { boundedContent } from './content.js';
import { classify, exportedFailureText, isTyped, MCP_ERROR_TYPES, McpCallError } from './errors.js';
import { addSession, durationAttributes, endRequestSpan, requestAttributes, TOOL_ERROR_MESSAGE } from './requestSpan.js';
import { clientDuration, mcpTracer } from './telemetry.js';

/** What a connection knows about itself, read at each request (the session and version come with initialize). */
export interface PeerAttributes {
  /** Low-cardinality name of the server (footprint.mcp.server on the metric). */
  server: string;
  /** network.*, server.address, server.port: fixed per transport. */
  network: Attributes;
  sessionId(): string | undefined;
  protocolVersion(): string | undefined;
  /** The connection's secrets (URL credentials and query values, header values) replaced by REDACTED: every message goes through it. */
  redact(text: string): string;
}

export interface ClientCall<T> {
  method: string;
  toolName?: string;
  peer: PeerAttributes;
  /** Content capture: tool arguments and results on the span, and the server's error text in its status. */
  capture: boolean;
  args?: unknown;
  signal?: AbortSignal;
  send(): Promise<T>;
  /** error.type of a result that is a failure in its payload (tools/call isError). */
  resultError?(result: T): string | undefined;
  resultContent?(result: T): unknown;
  /** Attributes a result adds to the span (tools/list: the tools refused). */
  resultAttributes?(result: T): Attributes | undefined;
}

/**
 * The client span a request is sent under, in the context it is sent with, so the transport wrapper
 * only stamps ids on spans this module started. A context value, not a WeakSet of the spans: adding
 * each new span to a weak collection was the largest part of tracedRequest's own time
 * (bench/results/mcp.txt).
 */
const MCP_CLIENT_SPAN = createContextKey('footprint-otel.mcp.client_span');

/** The MCP client span active in `ctx`, if the active span is one (not a span started under it). */
export function activeMcpClientSpan(ctx: Context): Span | undefined {
  const span = ctx.getValue(MCP_CLIENT_SPAN) as Span | undefined;
  return span !== undefined && span === trace.getSpan(ctx) ? span : undefined;
}

export async function tracedRequest<T>(call: ClientCall<T>): Promise<T> {
  const started = now();
  const { peer } = call;
  const attributes = Object.assign(requestAttributes(call.method, call.toolName, call.capture, call.args), peer.network);
  addSession(attributes, peer.sessionId(), peer.protocolVersion());
  const parent = context.active();
  const span = mcpTracer().startSpan(mcpSpanName(call.method, call.toolName), { kind: SpanKind.CLIENT, attributes, startTime: started }, parent);
  try {
    const result = await context.with(trace.setSpan(parent, span).setValue(MCP_CLIENT_SPAN, span), call.send);
    const failed = call.resultError?.(result);
    const described = call.resultAttributes?.(result);
    if (described) span.setAttributes(described);
    const shown = failed === undefined && call.resultContent ? exportedView({ type: 'mcp.tool_call', payload: { result: call.resultContent(result) } }, call.capture).payload.result : undefined;
    const content = shown !== undefined ? { [ATTR_GEN_AI_TOOL_CALL_RESULT]: boundedContent(shown) } : undefined;
    finish(span, call, started, failed, content, failed === MCP_ERROR_TYPES.toolError ? TOOL_ERROR_MESSAGE : undefined);
    return result;
  } catch (error) {
    const failure = classify(error, call.signal);
    const message = peer.redact(failure.message);
    // the server's own words (a JSON-RPC error's message, an HTTP error body) are content
    const status = exportedFailureText(failure, message, call.capture);
    finish(span, call, started, failure.type, failure.code !== undefined ? { [ATTR_RPC_RESPONSE_STATUS_CODE]: failure.code } : undefined, status);
    throw isTyped(error) ? error : new McpCallError(failure.type, `${call.method} failed: ${message}`, call.method, failure.status);
  }
}

function finish(span: Span, call: ClientCall<unknown>, started: number, errorType: string | undefined, extra: Attributes | undefined, message?: string): void {
  // The handshake (initialize, or server/discover) decides the session and the version: only its span reads them again at the end.
  if (call.method === METHOD_INITIALIZE || call.method === METHOD_SERVER_DISCOVER) span.setAttributes(addSession({}, call.peer.sessionId(), call.peer.protocolVersion()));
  if (extra) span.setAttributes(extra);
  endRequestSpan(span, clientDuration(), started, metricAttributes(call), errorType, message, true);
}

/** mcp.client.operation.duration's attributes: the span's low-cardinality ones, server.* included, network.protocol.name not. */
function metricAttributes(call: ClientCall<unknown>): Attributes {
  const { peer } = call;
  const metric = durationAttributes(call.method, peer.server, peer.network[ATTR_NETWORK_TRANSPORT], call.toolName);
  if (peer.network[ATTR_SERVER_ADDRESS] !== undefined) {
    metric[ATTR_SERVER_ADDRESS] = peer.network[ATTR_SERVER_ADDRESS];
    metric[ATTR_SERVER_PORT] = peer.network[ATTR_SERVER_PORT];
  }
  const version = peer.protocolVersion();
  if (version !== undefined) metric[ATTR_MCP_PROTOCOL_VERSION] = version;
  return metric;
}
