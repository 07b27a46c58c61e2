/** The Agent's public configuration types: options, tools and the context a tool runs with. */
import type { PricingTable } from '../cost/index.js';
import type { LLMProvider } from '../providers/index.js';

export interface AgentOptions {
  provider: LLMProvider;
  model: string;
  id?: string;
  name?: string;
  /** Hard cap on ReAct iterations per turn (default 10). Reaching it ends the turn stopped early. */
  maxIterations?: number;
  temperature?: number;
  maxTokens?: number;
  /** USD per million tokens by model id, merged over the shipped table. */
  pricing?: PricingTable;
}

export interface ToolContext {
  toolCallId: string;
  agentId: string;
  /** The run's AbortSignal, if the caller passed one. */
  signal?: AbortSignal;
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
  execute(args: Args, ctx: ToolContext): unknown | Promise<unknown>;
}
