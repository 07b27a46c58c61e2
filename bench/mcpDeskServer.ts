/** The one tool both MCP benchmarks serve (bench/mcpServer.ts over stdio, bench/mcpCpu.ts in-process): an order lookup. */
import { fromJsonSchema, McpServer, type ServerContext } from '@modelcontextprotocol/server';

const idArgs = fromJsonSchema<{ id: string }>({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });

type LookupResult = { content: { type: 'text'; text: string }[] };
export type LookupHandler = (args: { id: string }, ctx: ServerContext) => Promise<LookupResult>;

const lookupOrder: LookupHandler = async ({ id }) => ({ content: [{ type: 'text' as const, text: `order ${id}: shipped` }] });

/** The server with its tool; `wrap` puts code around the tool's handler (bench/mcpFloor.ts's hand-written tracing). */
export function deskServer(wrap: (handler: LookupHandler, server: McpServer) => LookupHandler = (handler) => handler): McpServer {
  const server = new McpServer({ name: 'desk-tools', version: '1.0.0' });
  server.registerTool('lookup_order', { description: 'Looks an order up by id', inputSchema: idArgs }, wrap(lookupOrder, server));
  return server;
}
