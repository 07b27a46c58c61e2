/**
 * traceMcpServer(): the server half, for an app's own MCP server on the same SDK. It wraps each
 * transport the server connects to (stdio, Streamable HTTP, any other): every incoming request gets an
 * MCP server span (kind SERVER, `{mcp.method.name} {tool}`) whose parent is the context the client put
 * in params._meta, with a link to the transport's ambient context when there is one (an HTTP server
 * span), and the request's handler runs inside it, so the server's own spans nest under it. Over
 * HTTP it records the client's address (clientAddress.ts; over stdio there is none). The span ends
 * once the response has been handed to the transport: error.type the JSON-RPC error code, or
 * tool_error for an isError result; mcp.server.operation.duration records the same. The response
 * goes out first, so ending the span (and a batch export that a full span queue starts inside it)
 * never delays the answer. A request the client cancels (notifications/cancelled) ends at the cancel,
 * `cancelled`; a request id the client reuses while in flight opens a second span, and each answer
 * ends the oldest span of its id. The span records the protocol version the server answered
 * initialize with, never the one the client asked for; on the stateless 2026-07-28 revision, which has
 * no initialize, the version each request's envelope names once the server has answered it (a
 * request claiming a version the server does not serve is refused with an error, so an answered
 * one was served at it). Telemetry never throws into the server.
 */
import { context, SpanKind, trace, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';
import type { Transport } from '@modelcontextprotocol/server';
import {
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_PROTOCOL_VERSION,
  mcpSpanName,
  METHOD_INITIALIZE,
  METHOD_TOOLS_CALL,
  ATTR_NETWORK_PROTOCOL_NAME,
  NOTIFICATION_CANCELLED,
  PROTOCOL_VERSION_META_KEY,
  ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_RESPONSE_STATUS_CODE,
} from './attributes.js';
import { exportedView, now } from '../events/index.js';
import { addClient, type ClientAddressOf } from './clientAddress.js';
import { boundedContent, resolveCapture } from './content.js';
import { exportedFailureText, jsonRpcErrorSummary, MCP_ERROR_TYPES } from './errors.js';
import { knownMethod, ListedTools } from './labels.js';
import { contextFromMeta, isRecord } from './meta.js';
import { addSession, durationAttributes, endRequestSpan, requestAttributes, TOOL_ERROR_MESSAGE } from './requestSpan.js';
import { mcpTracer, serverDuration } from './telemetry.js';

export interface TraceMcpServerOptions {
  /** footprint.mcp.server on the metric (default 'mcp-server'). */
  name?: string;
  /** Tool arguments and results on the server spans (default: the GenAI content-capture variable). */
  captureContent?: boolean;
  /**
   * Over HTTP, the client of a request that no forwarding header names (client.address and
   * client.port): a web-standard Request does not know its socket, your HTTP glue does.
   */
  clientAddress?: ClientAddressOf;
}

interface Settings {
  name: string;
  capture: boolean;
  clientAddress?: ClientAddressOf;
  /** The tools this server has listed, over every connection: the tool names its metric may carry. */
  listed: ListedTools;
}

/** Anything with the SDK's connect(transport): McpServer, or the low-level Server. */
export interface Connectable {
  connect(transport: Transport): Promise<void>;
}

interface Handling {
  span: Span;
  started: number;
  metric: Attributes;
  /** The session and version the span opened with: set again at its end only if the response changed them (initialize). */
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  /** The version the request's own envelope names (2026-07-28 and later: `_meta`), recorded once it is answered. */
  claimed: string | undefined;
}

type OnMessage = NonNullable<Transport['onmessage']>;

/** Makes every transport `server` connects to from now on a traced one; returns the server. */
export function traceMcpServer<S extends Connectable>(server: S, options: TraceMcpServerOptions = {}): S {
  const connect = server.connect.bind(server);
  const settings: Settings = {
    name: options.name ?? 'mcp-server',
    capture: resolveCapture(options.captureContent),
    clientAddress: options.clientAddress,
    listed: new ListedTools(),
  };
  server.connect = (transport: Transport) => connect(traceServerTransport(transport, settings));
  return server;
}

function traceServerTransport(transport: Transport, settings: Settings): Transport {
  /** The requests being handled, by JSON-RPC id: a client may reuse an id in flight, so each id holds a queue, oldest first. */
  const handling = new Map<string | number, Handling[]>();
  /** The version the server answered initialize with (the negotiated one; what the client asked for is its text, not a fact). */
  let protocolVersion: string | undefined;

  const receive = (handler: OnMessage, ...[message, extra]: Parameters<OnMessage>): void => {
    if ('method' in message && message.method === NOTIFICATION_CANCELLED) cancel(message.params);
    if (!('method' in message) || !('id' in message) || message.id === undefined) return handler(message, extra);
    let serving: Context | undefined;
    try {
      const parent = contextFromMeta(message.params);
      const opened = open(message as { method: string; id: string | number; params?: unknown }, extra, parent);
      const queue = handling.get(message.id);
      if (queue) queue.push(opened);
      else handling.set(message.id, [opened]);
      serving = trace.setSpan(parent, opened.span);
    } catch {
      // a span that cannot be made never stops the request
    }
    return serving ? context.with(serving, handler, undefined, message, extra) : handler(message, extra);
  };

  const open = (message: { method: string; id: string | number; params?: unknown }, extra: Parameters<OnMessage>[1], parent: Context): Handling => {
    const params = isRecord(message.params) ? message.params : {};
    const toolName = message.method === METHOD_TOOLS_CALL && typeof params.name === 'string' ? params.name : undefined;
    const sessionId = transport.sessionId;
    const attributes = requestAttributes(message.method, toolName, settings.capture, params.arguments);
    attributes[ATTR_JSONRPC_REQUEST_ID] = String(message.id);
    const networkTransport = extra?.request ? 'tcp' : 'pipe';
    attributes[ATTR_NETWORK_TRANSPORT] = networkTransport;
    if (extra?.request) {
      attributes[ATTR_NETWORK_PROTOCOL_NAME] = 'http';
      addClient(attributes, extra.request, settings.clientAddress);
    }
    addSession(attributes, sessionId, protocolVersion);
    // The transport's own context (an HTTP server span around this request) is linked, not the parent.
    const ambient = trace.getSpanContext(context.active());
    const links: Link[] | undefined = ambient && trace.isSpanContextValid(ambient) ? [{ context: ambient }] : undefined;
    const span = mcpTracer().startSpan(mcpSpanName(message.method, toolName), { kind: SpanKind.SERVER, attributes, links }, parent);
    // the client names the method and the tool: on the metric, only the methods MCP defines and the tools this server listed
    const metric = durationAttributes(knownMethod(message.method), settings.name, networkTransport, toolName === undefined ? undefined : settings.listed.label(toolName));
    const meta = isRecord(params._meta) ? params._meta : {};
    const claimed = typeof meta[PROTOCOL_VERSION_META_KEY] === 'string' ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
    return { span, started: now(), metric, sessionId, protocolVersion, claimed };
  };

  /** The oldest request still being handled under `id`, taken out of the queue. */
  const take = (id: string | number): Handling | undefined => {
    const queue = handling.get(id);
    const opened = queue?.shift();
    if (queue?.length === 0) handling.delete(id);
    return opened;
  };

  /** notifications/cancelled: the SDK stops the handler and never answers, so the span ends here. */
  const cancel = (params: unknown): void => {
    if (!isRecord(params) || (typeof params.requestId !== 'string' && typeof params.requestId !== 'number')) return;
    const queue = handling.get(params.requestId);
    handling.delete(params.requestId);
    for (const opened of queue ?? []) end(opened, MCP_ERROR_TYPES.cancelled, 'the client cancelled the request');
  };

  const finish = (message: Parameters<Transport['send']>[0]): void => {
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    const opened = take(message.id);
    if (!opened) return;
    const { span, metric } = opened;
    if (protocolVersion === undefined && 'result' in message && isRecord(message.result) && typeof message.result.protocolVersion === 'string') {
      protocolVersion = message.result.protocolVersion;
    }
    const sessionId = transport.sessionId;
    const served = protocolVersion ?? ('result' in message ? opened.claimed : undefined);
    if (sessionId !== opened.sessionId || served !== opened.protocolVersion) span.setAttributes(addSession({}, sessionId, served));
    if (served !== undefined) metric[ATTR_MCP_PROTOCOL_VERSION] = served;
    let errorType: string | undefined;
    let description: string | undefined;
    if ('error' in message) {
      errorType = String(message.error.code);
      // its message is the server's own words (what a handler threw, a name or URI asked for): content, as on the client's span
      description = exportedFailureText({ type: errorType, message: message.error.message, withoutContent: jsonRpcErrorSummary(message.error.code) }, message.error.message, settings.capture);
      span.setAttribute(ATTR_RPC_RESPONSE_STATUS_CODE, errorType);
    } else if ('result' in message && isRecord(message.result) && message.result.isError === true) {
      errorType = MCP_ERROR_TYPES.toolError;
      description = TOOL_ERROR_MESSAGE;
    } else if (metric[ATTR_GEN_AI_TOOL_NAME] !== undefined && 'result' in message && isRecord(message.result)) {
      const shown = exportedView({ type: 'mcp.tool_call', payload: { result: message.result.structuredContent ?? message.result.content } }, settings.capture).payload.result;
      if (shown !== undefined) span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, boundedContent(shown));
    }
    if ('result' in message && isRecord(message.result) && Array.isArray(message.result.tools)) settings.listed.add(message.result.tools);
    end(opened, errorType, description);
  };

  const end = ({ span, started, metric }: Handling, errorType: string | undefined, description?: string): void =>
    endRequestSpan(span, serverDuration(), started, metric, errorType, description);

  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    try {
      return send(message, sendOptions);
    } finally {
      try {
        finish(message);
      } catch {
        // telemetry never throws into the server
      }
    }
  };

  // The SDK sets onmessage and onclose while connecting (chaining what was there before): the
  // accessors wrap whatever is set, and hand back the wrapped function, so a chain never loops.
  let wrappedMessage: OnMessage | undefined;
  let wrappedClose: Transport['onclose'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => wrappedMessage,
    set: (fn: OnMessage | undefined) => {
      wrappedMessage = fn && ((message, extra) => receive(fn, message, extra));
    },
  });
  Object.defineProperty(transport, 'onclose', {
    configurable: true,
    get: () => wrappedClose,
    set: (fn: Transport['onclose']) => {
      wrappedClose =
        fn &&
        (() => {
          for (const queue of handling.values()) for (const opened of queue) end(opened, MCP_ERROR_TYPES.connectionClosed, 'the connection closed before the response was sent');
          handling.clear();
          fn();
        });
    },
  });
  return transport;
}
