/**
 * An MCP server's tool as the runtime's Tool: its name, description and JSON input schema as the
 * server listed them, so the agent validates arguments (runtime/tools/schema.ts), runs calls in parallel, honours skill
 * graphs and reports execute_tool spans exactly as for a local tool. Its execute() is one traced
 * tools/call with a bounded wait; a failure of any kind throws a McpCallError, which the tool runner
 * turns into an error result for the model, error.type the failure's kind.
 */
import type { Tool, ToolContext } from '../runtime/index.js';
import { METHOD_TOOLS_CALL } from './attributes.js';
import { tracedRequest, type PeerAttributes } from './clientSpan.js';
import { MCP_ERROR_TYPES, McpCallError } from './errors.js';

/** The parts of a listed MCP tool the agent uses. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** The parts of a CallToolResult the model sees. */
export interface CallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

export interface ToolCaller {
  peer: PeerAttributes;
  capture: boolean;
  timeoutMs: number;
  /** False once tools/list_changed dropped the tool from the server's list. */
  offers(name: string): boolean;
  /** The tools/list read a tools/list_changed started, while it runs (none: nothing to wait for). */
  listRead(): Promise<void> | undefined;
  call(name: string, args: Record<string, unknown>, options: { timeout: number; signal?: AbortSignal }): Promise<CallResult>;
}

export function toRuntimeTool(listed: ListedTool, caller: ToolCaller): Tool<Record<string, unknown>> {
  return {
    name: listed.name,
    description: listed.description ?? '',
    inputSchema: listed.inputSchema,
    execute: (args, ctx: ToolContext) => callTool(listed.name, args, ctx, caller),
  };
}

async function callTool(name: string, args: Record<string, unknown>, ctx: ToolContext, caller: ToolCaller): Promise<string> {
  if (!caller.offers(name)) {
    throw new McpCallError(MCP_ERROR_TYPES.toolRemoved, `the MCP server "${caller.peer.server}" no longer offers tool "${name}"`, METHOD_TOOLS_CALL);
  }
  const result = await tracedRequest<CallResult>({
    method: METHOD_TOOLS_CALL,
    toolName: name,
    peer: caller.peer,
    capture: caller.capture,
    args,
    signal: ctx.signal,
    send: () => caller.call(name, args, { timeout: caller.timeoutMs, signal: ctx.signal }),
    resultError,
    resultContent,
  });
  // A call that changed the server's list (its tools/list_changed came before this answer) ends once
  // the new list is read, so the agent's next iteration offers it.
  const relisting = caller.listRead();
  if (relisting) await relisting;
  const text = resultText(result);
  if (result.isError === true) throw new McpCallError(MCP_ERROR_TYPES.toolError, text || `tool "${name}" reported an error`, METHOD_TOOLS_CALL);
  return text;
}

/** error.type of a result that says isError (read by the client span; one function for every call). */
function resultError(result: CallResult): string | undefined {
  return result.isError === true ? MCP_ERROR_TYPES.toolError : undefined;
}

/** What a result is under content capture: its structured content, else its content blocks. */
function resultContent(result: CallResult): unknown {
  return result.structuredContent ?? result.content;
}

/** Text blocks joined by newlines; other blocks (images, resources) as their JSON; structured content if there is no content. */
export function resultText(result: CallResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (blocks.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return blocks
    .map((block: unknown) => {
      const b = block as { type?: unknown; text?: unknown };
      return b.type === 'text' && typeof b.text === 'string' ? b.text : JSON.stringify(block);
    })
    .join('\n');
}
