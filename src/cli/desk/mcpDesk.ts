/**
 * `demo --mcp`: starts the desk's MCP server (mcpServer.ts, the same runtime that runs this process:
 * node with its flags, so `npm start` runs the .ts file through tsx and the installed bin the .js)
 * and connects to it. connectMcp gives the server this process's OTEL_* and FOOTPRINT_* settings
 * (but the service name), so both write to the same destination. Imported only with --mcp: the MCP
 * SDK is an optional peer.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectMcp, McpPeerMissingError, type McpConnection } from '../../mcp/index.js';

const HERE = fileURLToPath(import.meta.url);
const SERVER = path.join(path.dirname(HERE), `mcpServer${path.extname(HERE)}`);

/** Connects to the desk's server; either MCP package missing is McpPeerMissingError (one line) before anything starts. */
export async function connectDeskTools(): Promise<McpConnection> {
  await McpPeerMissingError.importing('@modelcontextprotocol/server', () => import('@modelcontextprotocol/server'));
  return connectMcp({ command: process.execPath, args: [...process.execArgv, SERVER], cwd: process.cwd(), stderr: 'inherit' }, { name: 'desk-tools', connectTimeoutMs: 30_000 });
}
