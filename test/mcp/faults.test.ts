/**
 * Faults of an MCP server, each a typed, bounded failure with its span ended and the run going on:
 * the server killed mid-call, a call that never answers, a server that is not there, a malformed
 * tools/list, a tool that reports isError. Also: tools/list_changed reaches an agent built with the
 * connection at its next model call (a tool added and removed mid-run), and closing the connection
 * stops the stdio server it started.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, McpConnectError, type McpConnection } from '../../src/mcp/index.js';
import { Agent, scripted, type Tool } from '../../src/index.js';
import { deskAgent, httpServer, MALFORMED, startWorld, stdioServer, until, type FlatSpan, type World, SLOW_START } from '../support/mcp/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.stop();
});

/** The agent's spans of its one tool call, once exported: the execute_tool span and its MCP client span. */
async function toolSpans(tool: string, traceOf: (spans: FlatSpan[]) => string | undefined) {
  const spans = await until(world, (all) => {
    const trace = traceOf(all);
    return trace !== undefined && all.some((s) => s.traceId === trace && s.name === `tools/call ${tool}` && s.service === 'desk-agent');
  });
  const trace = traceOf(spans)!;
  const inTrace = spans.filter((s) => s.traceId === trace);
  return {
    execute: inTrace.find((s) => s.name === `execute_tool ${tool}`)!,
    client: inTrace.find((s) => s.name === `tools/call ${tool}` && s.service === 'desk-agent')!,
    agent: inTrace.find((s) => s.name === 'invoke_agent Desk')!,
  };
}

/** Runs an agent whose one tool call is `tool` (each test here calls a different tool, so its execute_tool span names its trace). */
async function runCalling(mcp: McpConnection, tool: string) {
  const answer = (await deskAgent(mcp, tool).run('Order 7, please.')).text;
  const traceOf = (spans: FlatSpan[]) => spans.find((s) => s.name === `execute_tool ${tool}`)?.traceId;
  return { answer, spans: await toolSpans(tool, traceOf) };
}

describe('a call that fails', () => {
  it('the server killed mid-call: connection_closed for the model, both spans ended failed, the run answers', async () => {
    const mcp = await connectMcp(stdioServer(world), SLOW_START);
    const { answer, spans } = await runCalling(mcp, 'crash');
    expect(answer).toMatch(/^answer: Tool "crash" failed: McpCallError: tools\/call failed: /);
    expect(spans.execute.attributes['error.type']).toBe('connection_closed');
    expect(spans.execute.attributes['footprint.tool.status']).toBe('error');
    expect(spans.client.attributes['error.type']).toBe('connection_closed');
    expect([spans.execute.status, spans.client.status]).toEqual([2, 2]);
    expect(spans.client.parentSpanId).toBe(spans.execute.spanId);
    expect(spans.agent.attributes['footprint.run.outcome']).toBe('ok');
    await mcp.close();
  }, 60_000);

  it('after the server died, none of its tools is offered (a call is an unknown tool), and a tool held from before fails as connection_closed', async () => {
    const changes: string[][] = [];
    const mcp = await connectMcp(stdioServer(world), { ...SLOW_START, onToolsChanged: (tools) => void changes.push(tools.map((t) => t.name)) });
    const [held] = mcp.tools(['lookup_order']);
    // The second call names crash again: no later test looks for its execute_tool span (runCalling finds a test's trace by its tool).
    const replies = [{ toolCalls: [{ name: 'crash', args: {} }] }, { toolCalls: [{ name: 'crash', args: {} }] }, 'done'];
    const agent = Agent.create({ provider: scripted({ replies }), model: 'm', id: 'desk' }).tools(mcp).build();
    const ends: [string, string | undefined][] = [];
    agent.on('footprint.call.tool_end', (event) => void ends.push([event.payload.status, event.payload.error?.type]));
    expect((await agent.run('Order 7, please.')).text).toBe('done');
    expect(ends).toEqual([
      ['error', 'connection_closed'],
      ['unknown_tool', 'unknown_tool'],
    ]);
    expect({ offered: mcp.tools(), lost: mcp.isLost, changes }).toEqual({ offered: [], lost: true, changes: [[]] });
    const failure = await Promise.resolve(held!.execute({ id: '7' }, { toolCallId: 'c9', agentId: 'desk', signal: new AbortController().signal, pause: async () => undefined } as never)).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'McpCallError', errorType: 'connection_closed', message: 'tools/call failed: the connection to the server is closed' });
    await mcp.close();
  }, 60_000);

  it('an onToolsChanged that throws when the server dies: no uncaught exception (the app goes on), the error is a process warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) => void warnings.push(`${warning.code}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const mcp = await connectMcp(stdioServer(world), {
        ...SLOW_START,
        onToolsChanged: () => {
          throw new Error('the app’s own bug');
        },
      });
      process.kill(mcp.pid!, 'SIGKILL');
      const deadline = Date.now() + 10_000;
      while (!mcp.isLost && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // process warnings are emitted on the next tick
      await new Promise((done) => setImmediate(done));
      expect([mcp.isLost, mcp.tools()]).toEqual([true, []]);
      expect(warnings).toEqual(['FOOTPRINT_MCP_ON_TOOLS_CHANGED_FAILED: footprint-otel: onToolsChanged of MCP server "desk-tools" threw: Error: the app’s own bug']);
      await mcp.close();
    } finally {
      process.off('warning', onWarning);
    }
  }, 60_000);

  it('a call that never answers: timeout after the per-call timeout, spans ended, the run answers', async () => {
    const mcp = await connectMcp(stdioServer(world), { ...SLOW_START, callTimeoutMs: 300 });
    const { answer, spans } = await runCalling(mcp, 'hang');
    expect(answer).toBe('answer: Tool "hang" failed: McpCallError: tools/call failed: Request timed out');
    expect(spans.execute.attributes['error.type']).toBe('timeout');
    expect(spans.client.attributes['error.type']).toBe('timeout');
    expect(spans.client.status).toBe(2);
    expect(spans.agent.attributes['footprint.run.outcome']).toBe('ok');
    await mcp.close();
  }, 60_000);

  it('the agent’s tool deadline (toolTimeoutMs) before callTimeoutMs: timeout on the MCP client span as on execute_tool, not cancelled (the run was not)', async () => {
    const mcp = await connectMcp(stdioServer(world), { ...SLOW_START, callTimeoutMs: Infinity });
    const provider = scripted({ replies: [{ toolCalls: [{ id: 'deadline-1', name: 'hang', args: {} }] }, 'done'] });
    const agent = Agent.create({ provider, model: 'm1', id: 'desk', name: 'Desk', toolTimeoutMs: 300 }).tools(mcp).build();
    expect((await agent.run('Order 7, please.')).text).toBe('done');
    const isExecute = (s: FlatSpan) => s.name === 'execute_tool hang' && s.attributes['gen_ai.tool.call.id'] === 'deadline-1';
    const spans = await until(world, (all) => {
      const execute = all.find(isExecute);
      const client = execute && all.find((s) => s.parentSpanId === execute.spanId);
      return client !== undefined && all.some((s) => s.parentSpanId === client.spanId);
    });
    await mcp.close();
    const execute = spans.find(isExecute)!;
    const client = spans.find((s) => s.parentSpanId === execute.spanId)!;
    const server = spans.find((s) => s.parentSpanId === client.spanId)!;
    expect([execute.attributes['error.type'], execute.attributes['footprint.tool.status']]).toEqual(['timeout', 'timeout']);
    expect([client.name, client.attributes['error.type'], client.status]).toEqual(['tools/call hang', 'timeout', 2]);
    // the server was told with notifications/cancelled: it knows only that the client gave up
    expect([server.service, server.attributes['error.type']]).toEqual(['mcp-desk', 'cancelled']);
  }, 60_000);

  it('an isError result: tool_error on both spans, the text reaches the model', async () => {
    const mcp = await connectMcp(stdioServer(world), SLOW_START);
    const { answer, spans } = await runCalling(mcp, 'refund_order');
    expect(answer).toBe('answer: Tool "refund_order" failed: McpCallError: order 7 cannot be refunded: already closed');
    expect(spans.execute.attributes['error.type']).toBe('tool_error');
    expect(spans.client.attributes['error.type']).toBe('tool_error');
    await mcp.close();
    const server = (await until(world, (all) => all.some((s) => s.service === 'mcp-desk' && s.name === 'tools/call refund_order'))).find(
      (s) => s.service === 'mcp-desk' && s.name === 'tools/call refund_order',
    )!;
    expect([server.attributes['error.type'], server.status, server.parentSpanId]).toEqual(['tool_error', 2, spans.client.spanId]);
  }, 60_000);

  it('an HTTP server gone after connecting: a typed error result, the run answers', async () => {
    const { url, child } = await httpServer(world);
    const mcp = await connectMcp({ url }, { ...SLOW_START, callTimeoutMs: 2_000 });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const { answer, spans } = await runCalling(mcp, 'lookup_order');
    expect(answer).toBe('answer: Tool "lookup_order" failed: McpCallError: tools/call failed: fetch failed');
    expect(spans.client.attributes['error.type']).toBe('connection_closed');
    expect(spans.execute.attributes['error.type']).toBe('connection_closed');
    await mcp.close();
  }, 60_000);
});

describe('a server that cannot be used', () => {
  const connectFailure = async (connect: Promise<unknown>) => {
    const error = (await connect.then(
      () => undefined,
      (e: unknown) => e,
    )) as McpConnectError;
    expect(error).toBeInstanceOf(McpConnectError);
    return error;
  };

  it('a stdio command that does not exist: McpConnectError unavailable, the initialize span ended failed', async () => {
    const error = await connectFailure(connectMcp({ command: '/nonexistent/mcp-server' }, { name: 'ghost' }));
    expect([error.errorType, error.server]).toEqual(['unavailable', 'ghost']);
    const spans = await until(world, (all) => all.some((s) => s.name === 'initialize' && s.attributes['error.type'] === 'unavailable'));
    const initialize = spans.find((s) => s.name === 'initialize' && s.attributes['error.type'] === 'unavailable')!;
    expect([initialize.status, initialize.kind, initialize.attributes['network.transport']]).toEqual([2, 3, 'pipe']);
  }, 30_000);

  it('an HTTP URL nobody listens on: McpConnectError unavailable', async () => {
    const error = await connectFailure(connectMcp({ url: 'http://127.0.0.1:9/mcp' }, { name: 'nobody' }));
    expect([error.errorType, error.server]).toEqual(['unavailable', 'nobody']);
  }, 30_000);

  it('a stdio server that never answers initialize: McpConnectError timeout within connectTimeoutMs', async () => {
    const error = await connectFailure(connectMcp({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, { name: 'mute', connectTimeoutMs: 500 }));
    expect([error.errorType, error.server]).toEqual(['timeout', 'mute']);
  }, 30_000);

  it('a malformed tools/list: McpConnectError malformed_response, the tools/list span ended failed', async () => {
    const error = await connectFailure(connectMcp({ command: process.execPath, args: [MALFORMED] }, SLOW_START));
    expect([error.errorType, error.server]).toEqual(['malformed_response', 'malformed']);
    const spans = await until(world, (all) => all.some((s) => s.name === 'tools/list' && s.attributes['error.type'] === 'malformed_response'));
    const list = spans.find((s) => s.name === 'tools/list' && s.attributes['error.type'] === 'malformed_response')!;
    expect([list.status, list.attributes['mcp.method.name'], list.attributes['network.transport']]).toEqual([2, 'tools/list', 'pipe']);
  }, 30_000);
});

describe('the connection', () => {
  it('honours tools/list_changed: an agent built with the connection sees a tool the server adds and removes mid-run, at its next model call', async () => {
    const changed: string[][] = [];
    const mcp = await connectMcp(stdioServer(world), { ...SLOW_START, onToolsChanged: (tools: Tool[]) => changed.push(tools.map((t) => t.name)) });
    const listed = ['lookup_order', 'refund_order', 'hang', 'crash', 'add_tool', 'remove_tool'];
    expect(mcp.tools().map((t) => t.name)).toEqual(listed);
    const provider = scripted({
      name: 'openai',
      replies: [
        { toolCalls: [{ id: 'l1', name: 'add_tool', args: {} }] },
        { toolCalls: [{ id: 'l2', name: 'escalate', args: { id: '9' } }] },
        { toolCalls: [{ id: 'l3', name: 'remove_tool', args: {} }] },
        { toolCalls: [{ id: 'l4', name: 'escalate', args: { id: '10' } }] },
        { content: 'done' },
      ],
    });
    const agent = Agent.create({ provider, model: 'm1', id: 'desk', name: 'Desk' }).tools(mcp).build();
    const offered: string[][] = [];
    const results: [string, string, string][] = [];
    agent.on('footprint.call.llm_start', (e) => offered.push((e.payload.tools ?? []).map((t) => t.name)));
    agent.on('footprint.call.tool_end', (e) => results.push([e.payload.toolName, e.payload.status, e.payload.result]));
    expect((await agent.run('Escalate ticket 9.')).text).toBe('done');
    expect(offered).toEqual([listed, [...listed, 'escalate'], [...listed, 'escalate'], listed, listed]);
    expect(results).toEqual([
      ['add_tool', 'ok', 'added escalate'],
      ['escalate', 'ok', 'ticket 9 escalated'],
      ['remove_tool', 'ok', 'removed escalate'],
      ['escalate', 'unknown_tool', `Unknown tool "escalate". Available tools: ${listed.join(', ')}.`],
    ]);
    expect(changed).toEqual([[...listed, 'escalate'], listed]);
    // select(names): the named tools the server lists at each read
    expect(() => mcp.select(['escalate'])).toThrow(new McpConnectError('unknown_tool', `MCP server "desk-tools" has no tool "escalate" (it has: ${listed.join(', ')})`, 'desk-tools'));
    const ctx = { toolCallId: 'direct', agentId: 'test', signal: new AbortController().signal, pause: async () => undefined };
    await mcp.tools(['add_tool'])[0]!.execute({}, ctx);
    const picked = mcp.select(['escalate', 'lookup_order']);
    expect(picked.tools().map((t) => t.name)).toEqual(['lookup_order', 'escalate']);
    await mcp.tools(['remove_tool'])[0]!.execute({}, ctx);
    expect(picked.tools().map((t) => t.name)).toEqual(['lookup_order']);
    await mcp.close();
    // the added tool's call is traced like any other: execute_tool -> MCP client span -> MCP server span
    const spans = await until(world, (all) => all.some((s) => s.service === 'mcp-desk' && s.name === 'tools/call escalate'));
    const server = spans.find((s) => s.service === 'mcp-desk' && s.name === 'tools/call escalate')!;
    const client = spans.find((s) => s.spanId === server.parentSpanId)!;
    const execute = spans.find((s) => s.spanId === client.parentSpanId)!;
    expect([client.service, client.name, execute.name, execute.attributes['gen_ai.tool.call.id']]).toEqual(['desk-agent', 'tools/call escalate', 'execute_tool escalate', 'l2']);
    expect(spans.filter((s) => s.traceId === server.traceId && s.name === 'tools/call escalate').length).toBe(2);
  }, 60_000);

  it('close() stops the stdio server it started', async () => {
    const mcp = await connectMcp(stdioServer(world), SLOW_START);
    const pid = mcp.pid!;
    expect(isAlive(pid)).toBe(true);
    await mcp.close();
    const deadline = Date.now() + 10_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(isAlive(pid)).toBe(false);
    expect(mcp.tools()).toEqual([]);
  }, 30_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
