/**
 * The session of a Streamable HTTP connection, against a real MCP server on 127.0.0.1 (the SDK's
 * web-standard transport on node:http, in this process): close() ends the session it started with
 * an HTTP DELETE, as the transport's specification asks of a client that no longer needs one, so
 * the server frees it then, not never; a second close() sends nothing.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { fromJsonSchema, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectMcp } from '../../src/mcp/index.js';
import { SLOW_START } from '../support/mcp/world.js';

const noArgs = fromJsonSchema<Record<string, never>>({ type: 'object', properties: {} });

/** The server's open sessions, and each request it got as `METHOD session?`. */
const open = new Map<string, WebStandardStreamableHTTPServerTransport>();
const requests: string[] = [];
let http: HttpServer;
let url: string;

beforeAll(async () => {
  http = createServer((req, res) => {
    void (async () => {
      const sessionId = req.headers['mcp-session-id'];
      requests.push(`${req.method} ${typeof sessionId === 'string' ? 'session' : '-'}`);
      let transport = typeof sessionId === 'string' ? open.get(sessionId) : undefined;
      if (!transport) {
        const made = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void open.set(id, made),
          onsessionclosed: (id) => void open.delete(id),
        });
        const server = new McpServer({ name: 'session-tools', version: '1.0.0' });
        server.registerTool('ping', { description: 'Answers pong', inputSchema: noArgs }, async () => ({ content: [{ type: 'text' as const, text: 'pong' }] }));
        await server.connect(made);
        transport = made;
      }
      const body = req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream) : undefined;
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body, duplex: 'half' } as RequestInit);
      const response = await transport.handleRequest(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

it('close() ends the HTTP session with a DELETE: the server frees it; a second close() sends nothing', async () => {
  const mcp = await connectMcp({ url }, SLOW_START);
  expect(open.size).toBe(1);
  const ctx = { toolCallId: 'c1', agentId: 'a', signal: new AbortController().signal, pause: async () => undefined };
  expect(await mcp.tools(['ping'])[0]!.execute({}, ctx)).toBe('pong');
  await mcp.close();
  expect(open.size).toBe(0);
  await mcp.close();
  expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual(['DELETE session']);
});
