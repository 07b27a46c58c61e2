/**
 * The floor of bench/mcp.ts: the least an integration can do with the OTel JS SDK to give an MCP tool
 * call the trace footprint-otel/mcp gives it, written by hand on @opentelemetry/api and the bare MCP
 * SDK, with no code of footprint-otel/mcp. Client: a CLIENT span `tools/call {tool}` under the active
 * context, its context injected into the request's params._meta by the registered propagators,
 * Client.callTool with that _meta, the span ended with the answer. Server: the tool's handler
 * extracts params._meta, starts a SERVER span as the remote parent's child and runs the tool inside
 * it. Both spans carry the attributes ours opens with (the client's but jsonrpc.request.id, which the
 * bare Client does not show before sending): the client's one object made once, the server's one
 * literal per request (it holds the request id), where ours builds them from parts per call.
 * With a histogram (F+H), each side records one duration with the attribute set ours records.
 *
 * What the floor skips that ours does: the error classification and typed errors, content capture,
 * the client span's JSON-RPC id, propagation on the SDK's own requests (initialize, tools/list),
 * the server span around the SDK's request handling (here it covers the handler only) and its
 * ending after the response is sent, the connection-closed ending of open spans.
 */
import { context, metrics, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Histogram, type Span } from '@opentelemetry/api';
import type { Client } from '@modelcontextprotocol/client';
import type { McpServer } from '@modelcontextprotocol/server';
import type { LookupHandler } from './mcpDeskServer.js';

const TOOL = 'lookup_order';
const SPAN_NAME = `tools/call ${TOOL}`;
const SERVER_NAME = 'desk-tools';
const SCOPE = 'bench-floor';
/** The metric catalog's MCP duration buckets (src/otel/metrics/catalog.ts), written out. */
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The two duration histograms, on the floor's own meter, with the buckets ours is made with. */
export function floorHistogram(side: 'client' | 'server'): Histogram {
  return metrics.getMeter(SCOPE).createHistogram(`mcp.${side}.operation.duration`, { unit: 's', advice: { explicitBucketBoundaries: BUCKETS } });
}

/** A failed call: error.type and status ERROR on the span, and the metric's attributes with error.type. */
function failed(span: Span, errorType: string, message: string | undefined, metric: Attributes | undefined): Attributes | undefined {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  return metric && { ...metric, 'error.type': errorType };
}

/** The client half: a tools/call of the desk tool, traced by hand; `histogram` for F+H. */
export function floorCall(client: Client, options: { timeout: number; signal: AbortSignal }, histogram?: Histogram) {
  const tracer = trace.getTracer(SCOPE);
  const version = client.getNegotiatedProtocolVersion() ?? '';
  const attributes: Attributes = {
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': TOOL,
    'gen_ai.operation.name': 'execute_tool',
    'network.transport': 'pipe',
    'mcp.protocol.version': version,
  };
  const metric: Attributes = { 'mcp.method.name': 'tools/call', 'footprint.mcp.server': SERVER_NAME, 'network.transport': 'pipe', 'gen_ai.tool.name': TOOL, 'mcp.protocol.version': version };
  return async (id: string) => {
    const started = performance.now();
    const parent = context.active();
    const span = tracer.startSpan(SPAN_NAME, { kind: SpanKind.CLIENT, attributes }, parent);
    const _meta: Record<string, string> = {};
    propagation.inject(trace.setSpan(parent, span), _meta);
    let recorded = metric;
    try {
      const result = await client.callTool({ name: TOOL, arguments: { id }, _meta }, options);
      if (result.isError === true) recorded = failed(span, 'tool_error', undefined, metric)!;
      return result;
    } catch (error) {
      recorded = failed(span, 'other', error instanceof Error ? error.message : String(error), metric)!;
      throw error;
    } finally {
      span.end();
      histogram?.record((performance.now() - started) / 1000, recorded);
    }
  };
}

const metaGetter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** The server half, for deskServer(wrap): the handler inside a SERVER span parented on params._meta; `histogram` for F+H. */
export function floorHandler(histogram?: Histogram): (handler: LookupHandler, server: McpServer) => LookupHandler {
  const tracer = trace.getTracer(SCOPE);
  return (handler, server) => async (args, ctx) => {
    const started = performance.now();
    const version = server.server.getNegotiatedProtocolVersion() ?? '';
    const parent = ctx.mcpReq._meta ? propagation.extract(ROOT_CONTEXT, ctx.mcpReq._meta, metaGetter) : ROOT_CONTEXT;
    const span = tracer.startSpan(
      SPAN_NAME,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': TOOL,
          'gen_ai.operation.name': 'execute_tool',
          'jsonrpc.request.id': String(ctx.mcpReq.id),
          'network.transport': 'pipe',
          'mcp.protocol.version': version,
        },
      },
      parent,
    );
    const metric: Attributes | undefined = histogram && { 'mcp.method.name': 'tools/call', 'footprint.mcp.server': SERVER_NAME, 'network.transport': 'pipe', 'gen_ai.tool.name': TOOL, 'mcp.protocol.version': version };
    let recorded = metric;
    try {
      return await context.with(trace.setSpan(parent, span), handler, undefined, args, ctx);
    } catch (error) {
      recorded = failed(span, 'other', error instanceof Error ? error.message : String(error), metric);
      throw error;
    } finally {
      span.end();
      histogram?.record((performance.now() - started) / 1000, recorded);
    }
  };
}
