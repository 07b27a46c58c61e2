/**
 * The desk's invoice lookup as an MCP server: the process `footprint-otel demo --mcp` starts and
 * talks to over stdio. It runs its own OTel SDK (startTelemetry, service.name
 * footprint-otel-desk-tools, the same destination the demo's environment names: OTLP, or files in
 * the same folder, metrics at the demo's pace) and traceMcpServer, so each lookup's server span joins
 * the run's trace. An unknown invoice is an error result (isError), as MCP servers report a tool's
 * failure: the MCP error panels and rules have something to show.
 */
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { traceMcpServer } from '../../mcp/index.js';
import { startTelemetry } from '../../telemetry/index.js';
import { safeStringify } from '../../runtime/index.js';
import { demoMetricInterval } from '../metricInterval.js';
import { lookupInvoice } from './tools.js';

const DESK_TOOLS_SERVICE = 'footprint-otel-desk-tools';

const telemetry = startTelemetry({ serviceName: DESK_TOOLS_SERVICE, metricExportIntervalMs: demoMetricInterval(), handleExit: false });
const server = traceMcpServer(new McpServer({ name: 'desk-tools', version: '1.0.0' }), { name: 'desk-tools' });
server.registerTool(
  lookupInvoice.name,
  { description: lookupInvoice.description, inputSchema: fromJsonSchema<{ id: string }>(lookupInvoice.inputSchema) },
  async (args, ctx) => {
    const context = { toolCallId: String(ctx.mcpReq.id), agentId: 'desk-tools', signal: ctx.mcpReq.signal, pause: () => Promise.reject(new Error('an MCP tool cannot pause')) };
    const invoice = (await lookupInvoice.execute(args, context)) as { found: boolean };
    // an invoice the books do not have is the tool's error, as an MCP server reports one (isError)
    return { content: [{ type: 'text' as const, text: safeStringify(invoice) }], ...(invoice.found ? {} : { isError: true }) };
  },
);

// The demo closes stdin when it is done (then SIGTERM): flush the spans, then go.
const stop = () => void telemetry.shutdown().finally(() => process.exit(0));
process.stdin.on('end', stop);
process.on('SIGTERM', stop);
await server.connect(new StdioServerTransport());
