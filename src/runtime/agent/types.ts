/** The Agent's public options (the tools it is given are typed in tools/). */
import type { ConversationWindow } from './window.js';
import type { PricingTable } from '../cost/index.js';
import type { LLMProvider, ReasoningEffort, ToolChoice } from '../providers/index.js';
import type { FallbackBrain } from '../skills/index.js';
import type { OutputSchema } from './structuredOutput.js';

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
   * Deadline of the runtime's wait on the provider in one model call, in ms (1 to 2 147 483 647,
   * default 600 000). For `complete()` it covers the whole call; for a streamed call it covers each
   * wait for the next part (a stream that stalls mid-way fails; one that keeps arriving may run
   * longer). Past it the provider's signal aborts and the call fails with ProviderError `timeout`
   * (retryable), as an HTTP provider's own deadline does. The default is above what the HTTP
   * providers' default transport settings may take with their retries; raise it with theirs.
   */
  modelCallTimeoutMs?: number;
  /**
   * What of a long conversation each model call is sent: at most `maxMessages` messages and/or
   * `maxTokens` estimated tokens, the oldest dropped first, starting at a user message (window.ts).
   * The conversation itself stays whole. Default: all of it.
   */
  window?: ConversationWindow;
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
  /**
   * Providers asked in order when a model call fails with a retryable error after the provider's own
   * retries (429, 5xx, timeout, network): each attempt is its own chat span, linked to the one before.
   * A streamed call that already handed out a chunk is not tried again.
   */
  fallbacks?: readonly FallbackBrain[];
  /** Sent with every model call: whether and which tool the model must call ('auto', 'none', 'required', { name }). */
  toolChoice?: ToolChoice;
  /** Sent with every model call: how much a reasoning model reasons ('minimal', 'low', 'medium', 'high'). */
  reasoningEffort?: ReasoningEffort;
  /**
   * The answer as structured output: a Standard Schema (zod 4, valibot, arktype) or a JSON Schema
   * (draft-07, 2019-09, 2020-12) whose root is an object, sent by the provider's native means (LLMRequest.responseFormat;
   * on Anthropic a forced tool, so the agent's own tools are not called while it is set). The
   * answer is parsed and validated; `result.output` is the value (typed by a Standard Schema),
   * `result.text` the raw JSON. An invalid answer is asked again (outputRetries), then the run fails
   * with StructuredOutputError (RunFailedError's cause).
   */
  output?: OutputSchema;
  /** How many times an answer that is not JSON or fails `output` is asked again, the problem told to the model (0 to 10, default 1). */
  outputRetries?: number;
}
