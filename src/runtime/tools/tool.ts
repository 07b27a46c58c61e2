import type { ToolArgs, ToolInputSchema } from './schema.js';

/**
 * A tool and the context it runs with, and a source of tools that can change: what an agent is given
 * and a skill names, so both agent/ and skills/ depend on these types and neither on the other.
 */
export interface ToolContext {
  toolCallId: string;
  agentId: string;
  /**
   * Aborts when the run is cancelled (the caller's AbortSignal) or the call passes its deadline
   * (`timeoutMs`): a tool that does slow work should pass it on (to fetch, a database driver). Made
   * the first time it is read (a getter of the context's class): read it as `ctx.signal`; a copy
   * of the context (`{ ...ctx }`) does not carry it.
   */
  signal: AbortSignal;
  /**
   * Pauses the run for a human and resolves with their answer once the run is resumed. Resuming
   * re-runs this tool from its start, so keep the work before the pause idempotent.
   */
  pause(question: string): Promise<unknown>;
}

export interface Tool<Args = any, Schema extends ToolInputSchema = ToolInputSchema> {
  name: string;
  description: string;
  /**
   * The arguments: a Standard Schema (zod 4, valibot, arktype; `execute`'s argument type is inferred
   * from it through `tool()` or `.tool()`) or a JSON Schema (draft-07, 2019-09, 2020-12). Calls that
   * do not match become an error result for the model.
   */
  inputSchema: Schema;
  /** Deadline of one call in ms (1 to 2 147 483 647); default: the agent's `toolTimeoutMs`. */
  timeoutMs?: number;
  execute(args: Args, ctx: ToolContext): unknown | Promise<unknown>;
}

/**
 * A tool whose `execute` argument type is inferred from its `inputSchema` (a Standard Schema's output
 * type; a JSON Schema gives `any`). Returns the tool as given.
 */
export function tool<Schema extends ToolInputSchema>(definition: Tool<ToolArgs<Schema>, Schema>): Tool<ToolArgs<Schema>, Schema> {
  return definition;
}

/**
 * Tools that can change while an agent lives, such as an MCP server's list. The agent reads
 * `tools()` at every iteration, before the model call, so the model is offered the current list and
 * a call to a tool no longer listed is an unknown tool. `tools()` should be cheap and hand back the
 * same Tool objects while the list is unchanged: the agent compiles a tool's schema once per object.
 */
export interface ToolSource {
  tools(): readonly Tool[];
}
