/**
 * footprint-otel/mcp: MCP servers' tools for agents, and one trace across the process boundary.
 *
 *   const desk = await connectMcp({ command: 'node', args: ['server.js'] });   // or { url, headers }
 *   for (const tool of desk.tools()) builder.tool(tool);                       // or desk.tools(['lookup'])
 *   traceMcpServer(new McpServer(...));                                        // in the server process
 *
 * On the official MCP TypeScript SDK v2 (@modelcontextprotocol/client and /server, optional peers):
 * nothing here is imported by the package's main entry. Depends on events/ (content capture),
 * runtime/ (the Tool type), otel/ (the metric catalog) and @opentelemetry/api. See docs/mcp.md.
 */
export { connectMcp, McpConnection, DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, type McpConnectOptions, type StdioServer, type HttpServer } from './connection.js';
export type { TelemetryEnv } from './serverEnv.js';
export { traceMcpServer, type TraceMcpServerOptions, type Connectable } from './server.js';
export type { ClientAddress, ClientAddressOf } from './clientAddress.js';
export type { RefusedTool } from './toolList.js';
export { McpCallError, McpConnectError, MCP_ERROR_TYPES } from './errors.js';
export { McpPeerMissingError } from './peers.js';
