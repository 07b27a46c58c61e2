/**
 * The MCP server process of bench/mcp.ts: ONE process serving the same tool on two channels, the
 * socket pairs the benchmark opened as this process's fd 3 and fd 4. Channel 3 is traced
 * (traceMcpServer, this process's OTel SDK through startTelemetry, exporting over OTLP to the
 * benchmark's receiver), channel 4 is the same server without traceMcpServer. Both channels share the
 * process, its core, its JIT state and its neighbours, so their difference is the tracing alone.
 */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { traceMcpServer } from '../src/mcp/index.js';
import { startTelemetry } from '../src/telemetry/index.js';
import { deskServer } from './mcpDeskServer.js';

const telemetry = startTelemetry();

const channel = (fd: number) => {
  const socket = new Socket({ fd, readable: true, writable: true });
  return new StdioServerTransport(socket, socket);
};
await traceMcpServer(deskServer(), { name: 'desk-tools' }).connect(channel(3));
await deskServer().connect(channel(4));
// bench/mcp.ts's base channel (MCP_BASE): the same server traced by another compiled copy of the package
if (process.env.MCP_BASE) {
  const base = (await import(pathToFileURL(path.resolve(process.env.MCP_BASE, 'mcp/index.js')).href)) as typeof import('../src/mcp/index.js');
  await base.traceMcpServer(deskServer(), { name: 'desk-tools' }).connect(channel(5));
}

process.stdin.on('end', () => void telemetry.shutdown().then(() => process.exit(0)));
process.stdin.resume();
