/**
 * The server metric's labels a client names: mcp.method.name and gen_ai.tool.name of
 * mcp.server.operation.duration. Any client may send any method and any tool name (30 invented names
 * made 30 series), so only what the server knows becomes a label: the methods the MCP specification
 * defines, and the tools this server has listed (read from its own tools/list answers); anything else
 * is '_OTHER'. The span keeps what the client sent, bounded (attributes.ts).
 */
import { MCP_ERROR_TYPES } from './errors.js';

/** Requests of the MCP specification (2025-11-25, and the 2026-07-28 revision's handshake). */
const METHODS = new Set([
  'initialize',
  'server/discover',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
]);

export function knownMethod(method: string): string {
  return METHODS.has(method) ? method : MCP_ERROR_TYPES.other;
}

/** Past this many names a server's list is not a tool list but a flood: later names are not learned. */
const MAX_LISTED = 1_000;

/** The tool names a server has listed, over all its connections. */
export class ListedTools {
  private readonly names = new Set<string>();

  /** Learns the names of a tools/list answer's tools. */
  add(tools: readonly unknown[]): void {
    for (const tool of tools) {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && this.names.size < MAX_LISTED) this.names.add(name);
    }
  }

  /** The tool's name when the server has listed it, else '_OTHER'. */
  label(name: string): string {
    return this.names.has(name) ? name : MCP_ERROR_TYPES.other;
  }
}
