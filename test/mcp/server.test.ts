/**
 * traceMcpServer() in one process, on the real OTel SDK (in-memory exporter) and the SDK's in-memory
 * transport pair: the server span parents on the context in params._meta, links the ambient context
 * the transport delivered the request in, records the conventions' attributes (content only under
 * capture), runs the handler inside it, and fails with the JSON-RPC code or tool_error. Over
 * Streamable HTTP (the SDK's web-standard transport, fed by the client's fetch in this process) it
 * records the client's address: from the forwarding headers, else from the app's clientAddress.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { TraceMcpServerOptions } from '../../src/mcp/index.js';
import { startSdk } from '../support/sdk.js';
import { calcServer } from './fixtures/calcServer.js';

const sdk = startSdk({ tracing: false });
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
afterAll(async () => {
  propagation.disable();
  await sdk.shutdown();
});
beforeEach(() => sdk.reset());


async function connected(captureContent: boolean) {
  const server = calcServer({ captureContent });
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
  // a JSON-RPC error's message is the server's own words (here the SDK's, quoting the name asked for): content
  expect(nope.status).toEqual({ code: SpanStatusCode.ERROR, message: 'JSON-RPC error -32602 (its message is content: recorded under content capture only)' });
  expect(sdk.unended()).toEqual([]);
  await client.close();
});

it("a handler's thrown text, answered as a JSON-RPC error, is in the server span's status only under capture", async () => {
  const secret = 'customer Jane Doe, card 4111-1111';
  const statuses: unknown[] = [];
  for (const captureContent of [false, true]) {
    sdk.reset();
    const server = calcServer({ captureContent });
    server.registerResource('ledger', 'file:///ledger', {}, async () => {
      throw new Error(`cannot read the ledger of ${secret}`);
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    await expect(client.readResource({ uri: 'file:///ledger' })).rejects.toThrow(secret);
    await client.close();
    const read = sdk.spans().find((s) => s.name === 'resources/read')!;
    statuses.push([read.attributes['error.type'], read.status]);
  }
  expect(statuses).toEqual([
    ['-32603', { code: SpanStatusCode.ERROR, message: 'JSON-RPC error -32603 (its message is content: recorded under content capture only)' }],
    ['-32603', { code: SpanStatusCode.ERROR, message: `cannot read the ledger of ${secret}` }],
  ]);
});

/** A client over Streamable HTTP whose fetch hands each request, with `headers` added, to the server's web-standard transport. */
async function overHttp(options: TraceMcpServerOptions, headers: Record<string, string>) {
  sdk.reset();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await calcServer(options).connect(transport);
  const fetch = async (url: string | URL, init?: RequestInit) => {
    const request = new Request(url, init);
    for (const [key, value] of Object.entries(headers)) request.headers.set(key, value);
    return transport.handleRequest(request);
  };
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://calc.test/mcp'), { fetch }));
  await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  await client.close();
  const span = sdk.spans().find((s) => s.name === 'tools/call add')!;
  return { attributes: span.attributes, session: transport.sessionId };
}

describe('client.address over Streamable HTTP', () => {
  const http = (session: string | undefined, client: Record<string, string | number>) => ({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'add',
    'gen_ai.operation.name': 'execute_tool',
    'jsonrpc.request.id': '1',
    'mcp.protocol.version': '2025-11-25',
    'mcp.session.id': session,
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    ...client,
  });

  it('the client a Forwarded header names, with its port (the client behind the proxy)', async () => {
    const { attributes, session } = await overHttp({ clientAddress: () => ({ address: '10.0.0.9', port: 3000 }) }, { forwarded: 'for="192.0.2.60:47011";proto=http;by=203.0.113.43, for=198.51.100.17' });
    expect(attributes).toEqual(http(session, { 'client.address': '192.0.2.60', 'client.port': 47011 }));
  });

  it('an IPv6 Forwarded node; X-Forwarded-For names an address without a port', async () => {
    expect((await overHttp({}, { forwarded: 'for="[2001:db8:cafe::17]:4711"' })).attributes['client.address']).toBe('2001:db8:cafe::17');
    const { attributes, session } = await overHttp({}, { 'x-forwarded-for': '203.0.113.195, 70.41.3.18' });
    expect(attributes).toEqual(http(session, { 'client.address': '203.0.113.195' }));
  });

  it('without forwarding headers, the app’s clientAddress (its socket’s peer); with neither, none', async () => {
    const fromApp = await overHttp({ clientAddress: () => ({ address: '10.1.2.80', port: 65123 }) }, {});
    expect(fromApp.attributes).toEqual(http(fromApp.session, { 'client.address': '10.1.2.80', 'client.port': 65123 }));
    const unknown = await overHttp({}, { forwarded: 'for=unknown' });
    expect(unknown.attributes).toEqual(http(unknown.session, {}));
    expect(sdk.unended()).toEqual([]);
  });
});
