/**
 * One trace across two processes: an agent's MCP tool call over stdio and over Streamable HTTP, with
 * the fixture server (its own Node process, its own OTel SDK) exporting to the same receiver. The
 * chain run -> invoke_agent -> execute_tool -> MCP client span -> MCP server span -> the server's own
 * span holds with exact parents and exact attribute sets, and holds for 20 concurrent runs without
 * any context crossing runs.
 */
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, scripted, type LLMRequest } from '../../src/index.js';
import { connectMcp, type McpConnection } from '../../src/mcp/index.js';
import { pointsOf, type JsonMetricsRequest } from '../telemetry/otlpJson.js';
import { ancestry, deskAgent, httpServer, startWorld, stdioServer, until, type FlatSpan, type World, SLOW_START } from '../support/mcp/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.stop();
});

const CHAIN = [
  'mcp-desk: orders.lookup',
  'mcp-desk: tools/call lookup_order',
  'desk-agent: tools/call lookup_order',
  'desk-agent: execute_tool lookup_order',
  'desk-agent: ToolCalls',
  'desk-agent: invoke_agent Desk',
];

const lookupsOf = (spans: FlatSpan[], order: string) => spans.filter((s) => s.name === 'orders.lookup' && s.attributes['order.id'] === order);
const parentOf = (spans: FlatSpan[], span: FlatSpan) => spans.find((s) => s.spanId === span.parentSpanId)!;

/** The attributes both ends of the lookup_order tools/call carry (the client adds its server address). */
const toolsCallAttributes = (requestId: unknown, transport: Record<string, unknown>) => ({
  'mcp.method.name': 'tools/call',
  'gen_ai.tool.name': 'lookup_order',
  'gen_ai.operation.name': 'execute_tool',
  'jsonrpc.request.id': requestId,
  'mcp.protocol.version': '2025-11-25',
  ...transport,
});

async function runOnce(mcp: McpConnection, order: string): Promise<FlatSpan[]> {
  const answer = await deskAgent(mcp).run(`Where is order ${order}?`);
  expect(answer.text).toBe(`answer: order ${order}: shipped`);
  return until(world, (spans) => lookupsOf(spans, order).length === 1 && spans.some((s) => s.name === 'invoke_agent Desk' && s.traceId === lookupsOf(spans, order)[0]!.traceId));
}

describe('over stdio', () => {
  it('one trace from the run to the server’s own span, parents exact, both services, exact attributes', async () => {
    const mcp = await connectMcp(stdioServer(world), SLOW_START);
    const spans = await runOnce(mcp, '4101');
    await mcp.close();
    const lookup = lookupsOf(spans, '4101')[0]!;
    expect(ancestry(spans, lookup)).toEqual(CHAIN);
    const server = parentOf(spans, lookup);
    const client = parentOf(spans, server);
    expect(new Set(spans.filter((s) => s.traceId === lookup.traceId).map((s) => s.service))).toEqual(new Set(['desk-agent', 'mcp-desk']));
    expect(client.kind).toBe(SpanKind.CLIENT + 1); // OTLP numbers kinds from 1 (INTERNAL)
    expect(server.kind).toBe(SpanKind.SERVER + 1);
    const requestId = client.attributes['jsonrpc.request.id'];
    expect(client.attributes).toEqual(toolsCallAttributes('2', { 'network.transport': 'pipe' }));
    // No client.address / client.port over stdio: the conventions ask for them "if applicable", and a
    // pipe's peer has no address (the MCP page's stdio examples carry none).
    expect(server.attributes).toEqual(toolsCallAttributes(requestId, { 'network.transport': 'pipe' }));
    expect([client.status, server.status]).toEqual([0, 0]);
    // stdio has no ambient transport context: nothing to link
    expect(server.links).toEqual([]);
  }, 60_000);

  it('parallel MCP calls in one iteration: each client span under its own execute_tool span', async () => {
    const mcp = await connectMcp(stdioServer(world), SLOW_START);
    const provider = scripted({
      name: 'openai',
      replies: (request: LLMRequest) =>
        request.messages.some((m) => m.role === 'tool')
          ? { content: 'done' }
          : { toolCalls: [{ id: 'p1', name: 'lookup_order', args: { id: '7101' } }, { id: 'p2', name: 'lookup_order', args: { id: '7102' } }] },
    });
    const builder = Agent.create({ provider, model: 'm1', id: 'desk', name: 'Desk' });
    for (const tool of mcp.tools(['lookup_order'])) builder.tool(tool);
    expect((await builder.build().run('Both orders.')).text).toBe('done');
    await mcp.close();
    const spans = await until(world, (all) => lookupsOf(all, '7101').length === 1 && lookupsOf(all, '7102').length === 1);
    for (const [order, callId] of [['7101', 'p1'], ['7102', 'p2']] as const) {
      const lookup = lookupsOf(spans, order)[0]!;
      expect(ancestry(spans, lookup)).toEqual(CHAIN);
      const execute = parentOf(spans, parentOf(spans, parentOf(spans, lookup)));
      expect([execute.attributes['gen_ai.tool.call.id'], execute.attributes['footprint.tool.parallel_count']]).toEqual([callId, 2]);
    }
  }, 60_000);

  it('mcp.client.operation.duration: one point per method, by tool and server', async () => {
    await world.telemetry.forceFlush();
    const points = world.receiver
      .of('/v1/metrics')
      .flatMap((r) => pointsOf(JSON.parse(r.body.toString('utf8')) as JsonMetricsRequest, 'mcp.client.operation.duration'));
    const last = new Map(points.map((p) => [JSON.stringify(p.attributes), p]));
    const call = [...last.values()].find((p) => p.attributes['mcp.method.name'] === 'tools/call')!;
    expect(call.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'lookup_order',
      'footprint.mcp.server': 'desk-tools',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
    });
    expect(call.value).toBe(3); // the chain test's call and the two parallel ones (cumulative histogram count)
    expect([...last.values()].map((p) => p.attributes['mcp.method.name']).sort()).toEqual(['initialize', 'tools/call', 'tools/list']);
  });

  it('20 concurrent runs over one connection: 20 traces, each chain its own, no context crossing runs', async () => {
    const mcp = await connectMcp(stdioServer(world), SLOW_START);
    const orders = Array.from({ length: 20 }, (_, i) => String(5000 + i));
    const answers = await Promise.all(orders.map((order) => deskAgent(mcp).run(`Where is order ${order}?`)));
    await mcp.close();
    expect(answers.map((a) => a.text)).toEqual(orders.map((order) => `answer: order ${order}: shipped`));
    const spans = await until(world, (all) => orders.every((order) => lookupsOf(all, order).length === 1));
    const traces = new Set<string>();
    for (const order of orders) {
      const lookup = lookupsOf(spans, order)[0]!;
      traces.add(lookup.traceId);
      expect(ancestry(spans, lookup)).toEqual(CHAIN);
      const server = parentOf(spans, lookup);
      const client = parentOf(spans, server);
      expect(server.attributes['jsonrpc.request.id']).toBe(client.attributes['jsonrpc.request.id']);
      // in the agent's process the client span lies within its execute_tool span: both read one clock
      const execute = parentOf(spans, client);
      expect([client.startNs >= execute.startNs, client.endNs <= execute.endNs]).toEqual([true, true]);
      // every span of this run's trace belongs to this run: one invoke_agent, one lookup, one of each MCP span
      const trace = spans.filter((s) => s.traceId === lookup.traceId);
      expect(trace.filter((s) => s.name === 'invoke_agent Desk').length).toBe(1);
      expect(trace.filter((s) => s.name === 'tools/call lookup_order').map((s) => s.service).sort()).toEqual(['desk-agent', 'mcp-desk']);
      expect(trace.filter((s) => s.name === 'orders.lookup').length).toBe(1);
    }
    expect(traces.size).toBe(20);
  }, 90_000);
});

describe('over Streamable HTTP', () => {
  it('the same chain, with the session id, the HTTP network attributes, the server address and the client address', async () => {
    const { url, child } = await httpServer(world);
    try {
      const mcp = await connectMcp({ url, headers: { 'x-desk': 'yes' } }, SLOW_START);
      const spans = await runOnce(mcp, '4202');
      await mcp.close();
      const lookup = lookupsOf(spans, '4202')[0]!;
      expect(ancestry(spans, lookup)).toEqual(CHAIN);
      const server = parentOf(spans, lookup);
      const client = parentOf(spans, server);
      const session = client.attributes['mcp.session.id'];
      expect(session).toMatch(/^[0-9a-f-]{36}$/);
      const port = Number(new URL(url).port);
      const http = { 'mcp.session.id': session, 'network.transport': 'tcp', 'network.protocol.name': 'http' };
      expect(client.attributes).toEqual(toolsCallAttributes('2', { ...http, 'server.address': '127.0.0.1', 'server.port': port }));
      // the socket's peer, which the fixture's HTTP glue hands to traceMcpServer (clientAddress); the
      // port is the one the OS gave the client's socket, not known to the test beforehand
      expect(server.attributes).toEqual(toolsCallAttributes('2', { ...http, 'client.address': '127.0.0.1', 'client.port': expect.any(Number) }));
      expect(server.attributes['client.port']).not.toBe(port);
    } finally {
      child.kill();
    }
  }, 60_000);

  it('20 concurrent runs over HTTP keep their traces apart', async () => {
    const { url, child } = await httpServer(world);
    try {
      const mcp = await connectMcp({ url }, SLOW_START);
      const orders = Array.from({ length: 20 }, (_, i) => String(6000 + i));
      await Promise.all(orders.map((order) => deskAgent(mcp).run(`Where is order ${order}?`)));
      await mcp.close();
      const spans = await until(world, (all) => orders.every((order) => lookupsOf(all, order).length === 1));
      const traces = orders.map((order) => {
        const lookup = lookupsOf(spans, order)[0]!;
        expect(ancestry(spans, lookup)).toEqual(CHAIN);
        return lookup.traceId;
      });
      expect(new Set(traces).size).toBe(20);
    } finally {
      child.kill();
    }
  }, 90_000);
});
