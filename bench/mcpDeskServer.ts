/** The one tool both MCP benchmarks serve (bench/mcpServer.ts over stdio, bench/mcpCpu.ts in-process): an order lookup. */
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';

const idArgs = fromJsonSchema<{ id: string }>({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });

export function deskServer(): McpServer {
  const server = new McpServer({ name: 'desk-tools', version: '1.0.0' });
  server.registerTool('lookup_order', { description: 'Looks an order up by id', inputSchema: idArgs }, async ({ id }) => ({
    content: [{ type: 'text' as const, text: `order ${id}: shipped` }],
  }));
  return server;
}
