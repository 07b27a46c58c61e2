/**
 * What run() resolves to (and stream()'s `result`, and resume()): the answer's text with everything a
 * caller needs to act on the run without listening to its events: its new messages (what a
 * conversation store appends), usage and cost over every model call, the member that answered, and
 * why the run stopped. `stopReason` comes from the same decision as the run span's outcome
 * (outcome.ts), so the two always agree.
 */
import type { RunnerKind, TokenUsage } from '../../events/index.js';
import type { Paused } from './checkpoint.js';
import type { LLMMessage } from './messages.js';

/**
 * Why the run stopped: the model answered; a skill graph's loop guard stopped the agent; the agent
 * reached maxIterations or a Loop its ceiling; a swarm spent its hand-offs; the caller cancelled
 * (RunCancelledError's `result`); a tool asked a human (`paused`).
 */
export type StopReason = 'answered' | 'loop_guard' | 'max_iterations' | 'budget_exhausted' | 'cancelled' | 'paused';

export interface RunResult<Output = unknown> {
  readonly runId: string;
  /** The answer's text ('' when paused or cancelled before one). */
  readonly text: string;
  /**
   * The validated structured output, when the Agent or LLMCall run has `output` (a schema) and
   * answered: the schema library's output (defaults and transforms applied); `text` is the raw JSON.
   */
  readonly output?: Output;
  /** This run's new messages, in order: its input, then what the answering member added. */
  readonly messages: readonly LLMMessage[];
  /** Totals over every model call of the run, failed ones included. */
  readonly usage: TokenUsage;
  /** The sum of the calls' priced cost; `priced` false when any call had no price. */
  readonly cost: { readonly usd: number; readonly priced: boolean };
  /** The stop reason of the model call that answered (normalised as LLMResponse.stopReason). */
  readonly finishReason?: string;
  /** The member whose answer is the run's: `path` is its composition path ('swarm:desk/agent:billing'). */
  readonly answeredBy?: { readonly id: string; readonly kind: RunnerKind; readonly path: string };
  readonly stopReason: StopReason;
  readonly conversationId?: string;
  /** Present iff stopReason is 'paused': the checkpoint to resume from and the question asked. */
  readonly paused?: Paused;
}
