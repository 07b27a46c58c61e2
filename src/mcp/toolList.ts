/**
 * An MCP server's tools/list, read tool by tool. The SDK's listTools() checks the whole result against
 * its own schema, so one tool whose inputSchema is not `type: "object"` failed connectMcp for every
 * tool, and a later tools/list_changed silently kept the stale list. Here the pages are read with a
 * schema that asks only for a `tools` array, and each tool is checked on its own, its schema through
 * the runtime's one schema mechanism (runtime/tools/schema.ts): a tool that fails is refused with the
 * reason, the others are offered. (Reading past the SDK's listTools also keeps its client from
 * compiling each tool's outputSchema with a validator of its own.)
 */
import type { Client } from '@modelcontextprotocol/client';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { checkToolSchema } from '../runtime/index.js';
import type { ListedTool } from './mcpTools.js';

/** A tool the server listed that the agent is not offered, and why. */
export interface RefusedTool {
  /** The name the server gave (cut at 200 characters), or `#n` for a tool without one (its place in the list). */
  name: string;
  reason: string;
}

export interface ToolList {
  tools: ListedTool[];
  refused: RefusedTool[];
}

/** Pages of tools/list read before the server's pagination counts as never ending. */
const MAX_PAGES = 100;
const MAX_NAME_CHARS = 200;

interface Page {
  tools: unknown[];
  nextCursor?: unknown;
}

/** A tools/list page: any result with a tools array (each tool is checked on its own). */
const PAGE: StandardSchemaV1<unknown, Page> = {
  '~standard': {
    version: 1,
    vendor: 'footprint-otel',
    validate: (value) =>
      Array.isArray((value as Partial<Page> | null)?.tools) ? { value: value as Page } : { issues: [{ message: 'the tools/list result has no tools array' }] },
  },
};

/** Reads every page of the server's tools/list (each request within `timeoutMs`) and checks each tool. */
export async function readToolList(client: Client, timeoutMs: number): Promise<ToolList> {
  // as the SDK's listTools(): a server that does not say it has tools has none
  if (!client.getServerCapabilities()?.tools) return { tools: [], refused: [] };
  const entries: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) throw new Error(`tools/list went on past ${MAX_PAGES} pages`);
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, PAGE, { timeout: timeoutMs });
    entries.push(...result.tools);
    const next = result.nextCursor;
    if (typeof next !== 'string' || seen.has(next)) break;
    seen.add(next);
    cursor = next;
  }
  return screen(entries);
}

/** How checkToolSchema names the tool in its message (cut off: the refusal names the tool itself). */
const THE_TOOL = 'the tool';

/** Each listed tool offered or refused on its own. */
export function screen(entries: readonly unknown[]): ToolList {
  const list: ToolList = { tools: [], refused: [] };
  entries.forEach((entry, index) => {
    const tool = entry as { name?: unknown; description?: unknown; inputSchema?: unknown } | null;
    if (typeof tool?.name !== 'string' || tool.name === '') {
      list.refused.push({ name: `#${index}`, reason: 'the tool has no name' });
      return;
    }
    const name = tool.name.slice(0, MAX_NAME_CHARS);
    try {
      checkToolSchema(tool.inputSchema, THE_TOOL);
    } catch (error) {
      list.refused.push({ name, reason: (error as Error).message.slice(THE_TOOL.length + 2) });
      return;
    }
    list.tools.push({ name: tool.name, description: typeof tool.description === 'string' ? tool.description : undefined, inputSchema: tool.inputSchema as Record<string, unknown> });
  });
  return list;
}
