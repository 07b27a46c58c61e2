/**
 * traceMcpServer() in one process, on the real OTel SDK (in-memory exporter) and the SDK's in-memory
 * transport pair: the server span parents on the context in params._meta, links the ambient context
 * the transport delivered the request in, records the conventions' attributes (content only under
 * capture), runs the handler inside it, and fails with the JSON-RPC code or tool_error.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { traceMcpServer } from '../../src/mcp/index.js';
import { startSdk } from '../support/sdk.js';

const sdk = startSdk({ tracing: false });
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
afterAll(async () => {
  propagation.disable();
  await sdk.shutdown();
});
beforeEach(() => sdk.reset());

async function connected(captureContent: boolean) {
  const server = new McpServer({ name: 'calc', version: '1.0.0' });
  const args = fromJsonSchema<{ a: number; b: number }>({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
  server.registerTool('add', { description: 'Adds', inputSchema: args }, async ({ a, b }) =>
    trace.getTracer('calc').startActiveSpan('calc.add', (span) => {
      span.end();
      return { content: [{ type: 'text' as const, text: String(a + b) }] };
    }),
  );
  server.registerTool('boom', { description: 'Fails', inputSchema: args }, async () => {
    throw new Error('no');
  });
  traceMcpServer(server, { name: 'calc', captureContent });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return client;
}

/** Calls `name` with a caller span's context in _meta, while an "ambient" span is active (the transport's context). */
async function callUnderSpans(client: Client, name: string) {
  const tracer = trace.getTracer('test');
  const caller = tracer.startSpan('caller');
  const ambient = tracer.startSpan('ambient http');
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), caller), meta);
  const result = await context.with(trace.setSpan(context.active(), ambient), () => client.callTool({ name, arguments: { a: 2, b: 3 }, _meta: meta }).catch((e: Error) => e));
  caller.end();
  ambient.end();
  return { result, caller: caller.spanContext(), ambient: ambient.spanContext() };
}

it('parents on params._meta, links the ambient context, nests the handler’s spans, records content under capture', async () => {
  const client = await connected(true);
  const { caller, ambient } = await callUnderSpans(client, 'add');
  const spans = sdk.spans();
  const server = spans.find((s) => s.name === 'tools/call add')!;
  const own = spans.find((s) => s.name === 'calc.add')!;
  expect(server.kind).toBe(SpanKind.SERVER);
  expect(server.parentSpanContext?.spanId).toBe(caller.spanId);
  expect(server.spanContext().traceId).toBe(caller.traceId);
  expect(server.links.map((l) => l.context.spanId)).toEqual([ambient.spanId]);
  expect(own.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
  expect(server.attributes).toEqual({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'add',
    'gen_ai.operation.name': 'execute_tool',
    'jsonrpc.request.id': '1',
    'mcp.protocol.version': '2025-11-25',
    'network.transport': 'pipe',
    'gen_ai.tool.call.arguments': '{"a":2,"b":3}',
    'gen_ai.tool.call.result': '[{"type":"text","text":"5"}]',
  });
  expect(server.status.code).toBe(SpanStatusCode.UNSET);
  await client.close();
});

it('without capture: no arguments or results; a thrown tool is tool_error; an unknown tool its JSON-RPC code', async () => {
  const client = await connected(false);
  await callUnderSpans(client, 'boom');
  await callUnderSpans(client, 'nope');
  const spans = sdk.spans();
  const boom = spans.find((s) => s.name === 'tools/call boom')!;
  const nope = spans.find((s) => s.name === 'tools/call nope')!;
  expect(boom.attributes).toEqual({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'boom',
    'gen_ai.operation.name': 'execute_tool',
    'jsonrpc.request.id': '1',
    'mcp.protocol.version': '2025-11-25',
    'network.transport': 'pipe',
    'error.type': 'tool_error',
  });
  expect(boom.status).toEqual({ code: SpanStatusCode.ERROR, message: 'the tool reported an error (isError)' });
  expect(nope.attributes).toEqual({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'nope',
    'gen_ai.operation.name': 'execute_tool',
    'jsonrpc.request.id': '2',
    'mcp.protocol.version': '2025-11-25',
    'network.transport': 'pipe',
    'error.type': '-32602',
    'rpc.response.status_code': '-32602',
  });
  expect(nope.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Tool nope not found' });
  expect(sdk.unended()).toEqual([]);
  await client.close();
});
