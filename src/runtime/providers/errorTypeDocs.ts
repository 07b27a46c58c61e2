/**
 * Every `error.type` value the runtime reports — on failed spans, in gen_ai.client.inference.duration (gen_ai.client.operation.duration in the v1.41 mode)
 * and in the failure payloads of llm_end, tool_end, branch_end and run.failed — in one table: the
 * reference page's list (docs/reference.md) is generated from ERROR_TYPE_DOCS (npm run reference), as
 * the semantic conventions ask instrumentations to document. It lives in providers/ because that is
 * the lowest folder that sees both the model-call kinds (ProviderErrorKind) and run/'s fixed values.
 */
import { FIXED_ERROR_TYPES } from '../run/index.js';
import type { ProviderErrorKind } from './errors.js';

/** What a failed model call reports, by ProviderError kind (an HTTP answer reports its status instead). */
const PROVIDER_KINDS: Record<ProviderErrorKind, string> = {
  http: 'an HTTP error answer without a status (one with a status reports the status)',
  timeout: "the model call ran past its deadline (an HTTP provider's timeoutMs, or the agent's modelCallTimeoutMs)",
  network: 'the connection to the model server failed',
  malformed_response: 'the reply was not a usable response',
  response_too_large: "the reply's body was larger than the provider's maxResponseBytes",
  stream_error: 'the model server reported an error in the middle of a streamed reply',
  aborted: 'the model call was cancelled (the run was cancelled during it)',
  script: 'a scripted provider had no usable reply',
};

export interface ErrorTypeDoc {
  /** The value, or a pattern in braces for a family of values. */
  value: string;
  /** Values of the pattern, for the reader. */
  examples?: readonly string[];
  where: string;
  means: string;
}

const MODEL_CALL = 'a model call: `chat` span, gen_ai.client.inference.duration (gen_ai.client.operation.duration in the v1.41 mode), llm_end';
const TOOL_CALL = 'a tool call: `execute_tool` span, tool_end';

export const ERROR_TYPE_DOCS: readonly ErrorTypeDoc[] = [
  { value: '{HTTP status}', examples: ['429', '503'], where: MODEL_CALL, means: 'the model server answered with this HTTP error status' },
  ...Object.entries(PROVIDER_KINDS).map(([kind, means]) => ({ value: kind, where: MODEL_CALL, means })),
  { value: FIXED_ERROR_TYPES.unknownTool, where: TOOL_CALL, means: 'the model called a tool the agent does not have' },
  { value: FIXED_ERROR_TYPES.invalidArgs, where: TOOL_CALL, means: "the model's arguments are no JSON object or fail the tool's input schema" },
  { value: FIXED_ERROR_TYPES.toolTimeout, where: TOOL_CALL, means: "the tool did not finish within its deadline (toolTimeoutMs, or the tool's timeoutMs)" },
  { value: FIXED_ERROR_TYPES.tooManyCalls, where: TOOL_CALL, means: 'the model asked for more tool calls in one reply than maxToolCallsPerReply; this one and every call after it were not run (one refusal for them all)' },
  { value: FIXED_ERROR_TYPES.skillRejected, where: TOOL_CALL, means: 'the model asked read_skill for a skill it may not reach from the current one' },
  {
    value: '{error class}',
    examples: ['Error', 'TypeError'],
    where: `${TOOL_CALL}; a failed member: its span, branch_end`,
    means: 'a tool (or a member) threw an error that declares no errorType: its class name',
  },
  {
    value: FIXED_ERROR_TYPES.other,
    where: `${TOOL_CALL}; a failed member: its span, branch_end`,
    means: 'a thrown value that is not an Error (a string, null, a plain object), or a class name or errorType that is not a short identifier',
  },
  { value: FIXED_ERROR_TYPES.branchWithoutOutput, where: 'a Parallel branch: branch_end', means: 'a Parallel branch ended without an output or an error' },
  { value: FIXED_ERROR_TYPES.cancelled, where: `a run: the run span, run.failed; ${TOOL_CALL}`, means: "the run was cancelled through the caller's AbortSignal (a tool call it cut short too)" },
];
