/**
 * The MCP server process of bench/mcp.ts: ONE process serving the same tool on several channels, the
 * socket pairs the benchmark opened as this process's fds. fd 3 is traced (traceMcpServer, this
 * process's OTel SDK through startTelemetry, exporting over OTLP to the benchmark's receiver), fd 4
 * is the same server without traceMcpServer, fd 5 and fd 6 are the hand-written floor
 * (bench/mcpFloor.ts) without and with its duration histogram, fd 7 (MCP_BASE) is traced by another
 * compiled copy of the package. All channels share the process, its core, its JIT state and its
 * neighbours, so their differences are the tracing alone.
 */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { traceMcpServer } from '../src/mcp/index.js';
import { startTelemetry } from '../src/telemetry/index.js';
import { deskServer } from './mcpDeskServer.js';
import { floorHandler, floorHistogram } from './mcpFloor.js';

const telemetry = startTelemetry();

const channel = (fd: number) => {
  const socket = new Socket({ fd, readable: true, writable: true });
  return new StdioServerTransport(socket, socket);
};
await traceMcpServer(deskServer(), { name: 'desk-tools' }).connect(channel(3));
await deskServer().connect(channel(4));
await deskServer(floorHandler()).connect(channel(5));
await deskServer(floorHandler(floorHistogram('server'))).connect(channel(6));
if (process.env.MCP_BASE) {
  const base = (await import(pathToFileURL(path.resolve(process.env.MCP_BASE, 'mcp/index.js')).href)) as typeof import('../src/mcp/index.js');
  await base.traceMcpServer(deskServer(), { name: 'desk-tools' }).connect(channel(7));
}

process.stdin.on('end', () => void telemetry.shutdown().then(() => process.exit(0)));
process.stdin.resume();
