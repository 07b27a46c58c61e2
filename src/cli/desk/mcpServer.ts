/**
 * The desk's invoice lookup as an MCP server: the process `footprint-otel demo --mcp` starts and
 * talks to over stdio. It runs its own OTel SDK (startTelemetry, service.name
 * footprint-otel-desk-tools, the same destination the demo's environment names: OTLP, or files in
 * the same folder) and traceMcpServer, so each lookup's server span joins the run's trace.
 */
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { traceMcpServer } from '../../mcp/index.js';
import { startTelemetry } from '../../telemetry/index.js';
import { safeStringify } from '../../runtime/index.js';
import { lookupInvoice } from './tools.js';

const DESK_TOOLS_SERVICE = 'footprint-otel-desk-tools';

const telemetry = startTelemetry({ serviceName: DESK_TOOLS_SERVICE, handleExit: false });
const server = traceMcpServer(new McpServer({ name: 'desk-tools', version: '1.0.0' }), { name: 'desk-tools' });
server.registerTool(
  lookupInvoice.name,
  { description: lookupInvoice.description, inputSchema: fromJsonSchema<{ id: string }>(lookupInvoice.inputSchema) },
  async (args, ctx) => {
    const context = { toolCallId: String(ctx.mcpReq.id), agentId: 'desk-tools', signal: ctx.mcpReq.signal, pause: () => Promise.reject(new Error('an MCP tool cannot pause')) };
    return { content: [{ type: 'text' as const, text: safeStringify(await lookupInvoice.execute(args, context)) }] };
  },
);

// The demo closes stdin when it is done (then SIGTERM): flush the spans, then go.
const stop = () => void telemetry.shutdown().finally(() => process.exit(0));
process.stdin.on('end', stop);
process.on('SIGTERM', stop);
await server.connect(new StdioServerTransport());
