/**
 * MCP across protocol revisions: an agent's tool call to a stateful server (the 2025 revisions:
 * initialize, an Mcp-Session-Id over Streamable HTTP) and to a stateless one (2026-07-28: the SDK's
 * createMcpHandler, a server/discover handshake, no session) gives one trace each, from the agent's
 * span to the server's own span, with the session only where there is one and the served revision
 * on both MCP spans. Real SDKs on both sides, HTTP on 127.0.0.1, the OTel SDK's in-memory exporter.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { createMcpHandler, PROTOCOL_VERSION_META_KEY as SDK_PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, ConfigError, scripted } from '../../src/index.js';
import { connectMcp } from '../../src/mcp/index.js';
import { PROTOCOL_VERSION_META_KEY } from '../../src/mcp/attributes.js';
import { render } from '../support/traceTree.js';
import { startSdk } from '../support/sdk.js';
import { calcServer } from './fixtures/calcServer.js';
import { serveHttp } from './fixtures/httpServe.js';

const sdk = startSdk({ tracing: { detail: 'semantic' } });
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
afterAll(async () => {
  propagation.disable();
  await sdk.shutdown();
});
beforeEach(() => sdk.reset());

const servers: HttpServer[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});


/** A stateless 2026-07-28 server: the SDK's createMcpHandler, one traced server per request, on node:http. */
async function serveStateless(): Promise<number> {
  const handler = createMcpHandler(() => calcServer());
  const http = createServer((req, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream);
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body, duplex: 'half' } as RequestInit);
    void handler
      .fetch(request)
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) for await (const chunk of response.body) res.write(chunk);
        res.end();
      })
      .catch(() => res.destroy());
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return (http.address() as AddressInfo).port;
}

async function addTwoAndThree(url: string, revision?: '2026-07-28'): Promise<void> {
  const mcp = await connectMcp({ url }, revision === undefined ? {} : { revision });
  try {
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, 'Five.'] });
    const agent = Agent.create({ provider, model: 'm1', id: 'adder', name: 'Adder' }).tools(mcp).build();
    expect((await agent.run('2 + 3?')).text).toBe('Five.');
  } finally {
    await mcp.close();
  }
}

const MCP_KEYS = ['mcp.protocol.version', 'mcp.session.id'];

/** The trace of the tool call, from the agent's span down, with the MCP spans' version and session. */
function toolCallTrace(): string {
  const spans = sdk.spans();
  const call = spans.find((s) => s.name === 'calc.add')!;
  return render(spans.filter((s) => s.spanContext().traceId === call.spanContext().traceId && !s.name.startsWith('chat') && s.name !== 'tools/list'), {
    attrs: MCP_KEYS,
  }).replace(/mcp\.session\.id=[0-9a-f-]{36}/g, 'mcp.session.id=<uuid>');
}

describe('MCP protocol revisions, one trace each', () => {
  it('a stateful server (2025-11-25): initialize, a session on both MCP spans', async () => {
    const port = await serveHttp(calcServer);
    await addTwoAndThree(`http://127.0.0.1:${port}/mcp`);
    expect(toolCallTrace()).toBe(
      [
        'invoke_agent Adder',
        '  execute_tool add',
        '    tools/call add [CLIENT] mcp.protocol.version=2025-11-25 mcp.session.id=<uuid>',
        '      tools/call add [SERVER] mcp.protocol.version=2025-11-25 mcp.session.id=<uuid>',
        '        calc.add',
      ].join('\n'),
    );
    expect(sdk.spans().filter((s) => s.name === 'initialize' || s.name === 'server/discover').map((s) => s.name)).toEqual(['initialize', 'initialize']);
  });

  it('a stateless server (2026-07-28, revision pinned): server/discover, no session, the served revision', async () => {
    const port = await serveStateless();
    await addTwoAndThree(`http://127.0.0.1:${port}/mcp`, '2026-07-28');
    expect(toolCallTrace()).toBe(
      [
        'invoke_agent Adder',
        '  execute_tool add',
        '    tools/call add [CLIENT] mcp.protocol.version=2026-07-28',
        '      tools/call add [SERVER] mcp.protocol.version=2026-07-28',
        '        calc.add',
      ].join('\n'),
    );
    expect(sdk.spans().filter((s) => s.name === 'initialize' || s.name === 'server/discover').map((s) => s.name)).toEqual(['server/discover', 'server/discover']);
  });

  it('a revision connectMcp cannot pin is a ConfigError naming it', async () => {
    await expect(connectMcp({ url: 'http://127.0.0.1:9/mcp' }, { revision: '2027-01-01' as '2026-07-28' })).rejects.toThrow(ConfigError);
  });

  it("reads the request envelope's version under the SDK's own key", () => {
    expect(PROTOCOL_VERSION_META_KEY).toBe(SDK_PROTOCOL_VERSION_META_KEY);
  });
});
