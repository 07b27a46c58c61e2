/** The Agent's public configuration types: options, tools, tool sources and the context a tool runs with. */
import type { PricingTable } from '../cost/index.js';
import type { LLMProvider } from '../providers/index.js';

export interface AgentOptions {
  provider: LLMProvider;
  model: string;
  id?: string;
  name?: string;
  /** Hard cap on ReAct iterations per turn (1 to 1000, default 10). Reaching it ends the turn stopped early. */
  maxIterations?: number;
  /** Sampling temperature sent with every model call (0 to 2). */
  temperature?: number;
  /** Most tokens one model call may produce (1 to 100 000 000). */
  maxTokens?: number;
  /**
   * Most tool calls run for one model reply (1 to 1000, default 32). The calls past it are not run:
   * each gets the error result `too_many_calls`, which the model sees, so it can ask again.
   */
  maxToolCallsPerReply?: number;
  /** Most tool calls of one reply running at once (1 to 1000, default 8); the others wait their turn. */
  toolConcurrency?: number;
  /**
   * Deadline of one tool call in ms (1 to 2 147 483 647, default 120 000); a tool's own `timeoutMs`
   * overrides it. A call past it ends with the error result `timeout` and its `ctx.signal` aborts.
   */
  toolTimeoutMs?: number;
  /** USD per million tokens by model id, merged over the shipped table. */
  pricing?: PricingTable;
}

export interface ToolContext {
  toolCallId: string;
  agentId: string;
  /**
   * Aborts when the run is cancelled (the caller's AbortSignal) or the call passes its deadline
   * (`timeoutMs`): a tool that does slow work should pass it on (to fetch, a database driver).
   */
  signal: AbortSignal;
  /**
   * Pauses the run for a human and resolves with their answer once the run is resumed. Resuming
   * re-runs this tool from its start, so keep the work before the pause idempotent.
   */
  pause(question: string): Promise<unknown>;
}

export interface Tool<Args = any> {
  name: string;
  description: string;
  /** JSON Schema of the arguments; calls that do not match become an error result for the model. */
  inputSchema: Record<string, unknown>;
  /** Deadline of one call in ms (1 to 2 147 483 647); default: the agent's `toolTimeoutMs`. */
  timeoutMs?: number;
  execute(args: Args, ctx: ToolContext): unknown | Promise<unknown>;
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
