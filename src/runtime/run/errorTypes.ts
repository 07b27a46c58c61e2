/**
 * The fixed `error.type` values the runtime reports (on failed spans, in gen_ai.client.inference.duration (gen_ai.client.operation.duration in the v1.41 mode)
 * and in the failure payloads of llm_end, tool_end, branch_end and run.failed): code that reports a
 * fixed value takes it from FIXED_ERROR_TYPES. The reference list of every value, with the model-call
 * kinds, is providers/errorTypeDocs.ts.
 */
/** The fixed values, by what reports them. */
export const FIXED_ERROR_TYPES = {
  /** run.failed (and the run span), and a tool call it cut short, when the caller's AbortSignal fired. */
  cancelled: 'cancelled',
  /** A tool call past its deadline (the agent's toolTimeoutMs or the tool's timeoutMs). */
  toolTimeout: 'timeout',
  /** A tool call past the agent's maxToolCallsPerReply: not run. */
  tooManyCalls: 'too_many_calls',
  /** Something thrown that is not an Error and declares no usable errorType (the conventions' fallback). */
  other: '_OTHER',
  /** A tool call naming no tool the agent has. */
  unknownTool: 'unknown_tool',
  /** A tool call whose arguments fail the tool's JSON schema. */
  invalidArgs: 'invalid_args',
  /** A read_skill call asking for a skill the cursor may not reach. */
  skillRejected: 'skill_rejected',
  /** A Parallel branch that ended without an output or an error. */
  branchWithoutOutput: 'unknown',
} as const;
