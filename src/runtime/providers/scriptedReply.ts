/**
 * What a scripted reply may be, checked before it is played: a string, or an object whose fields
 * have the types ScriptedReply declares (usage under the one usage policy, usage.ts; tool calls named,
 * chunks that agree with the content). A list of
 * replies is checked whole when the provider is made; a reply function's answer when it arrives.
 */
import { isCount, isRecord } from './guards.js';
import { readUsage } from './usage.js';

/** Why `reply` is not a ScriptedReply, or undefined when it is one. */
export function scriptedReplyProblem(reply: unknown): string | undefined {
  if (typeof reply === 'string') return undefined;
  if (!isRecord(reply)) return `is ${reply === null ? 'null' : Array.isArray(reply) ? 'an array' : `a ${typeof reply}`}, not a string or a reply object`;
  const { content, chunks, toolCalls, usage, stopReason, error, errorAfterChunks, delayMs, chunkDelayMs } = reply;
  if (content !== undefined && typeof content !== 'string') return 'has a content that is not a string';
  if (chunks !== undefined) {
    if (!Array.isArray(chunks) || chunks.some((chunk) => typeof chunk !== 'string')) return 'has chunks that are not a list of strings';
    if (content !== undefined && chunks.join('') !== content) return 'has chunks that do not add up to its content';
  }
  if (stopReason !== undefined && typeof stopReason !== 'string') return 'has a stopReason that is not a string';
  if (error !== undefined && !(error instanceof Error)) return 'has an error that is not an Error';
  if (delayMs !== undefined && !isCount(delayMs)) return 'has a delayMs that is not a finite number >= 0';
  if (chunkDelayMs !== undefined && !isCount(chunkDelayMs)) return 'has a chunkDelayMs that is not a finite number >= 0';
  if (errorAfterChunks !== undefined) {
    if (!Number.isInteger(errorAfterChunks) || !isCount(errorAfterChunks)) return 'has an errorAfterChunks that is not a whole number >= 0';
    if (error === undefined) return 'has an errorAfterChunks but no error to throw';
  }
  if (toolCalls !== undefined) {
    if (!Array.isArray(toolCalls)) return 'has toolCalls that are not an array';
    const bad = toolCalls.findIndex(
      (call: unknown) =>
        !isRecord(call) ||
        typeof call.name !== 'string' ||
        (call.id !== undefined && typeof call.id !== 'string') ||
        (call.args !== undefined && !isRecord(call.args)),
    );
    if (bad !== -1) return `has toolCalls[${bad}] without a name, or with an id that is not a string or args that are not an object`;
  }
  if (usage !== undefined && usage !== null) {
    if (!isRecord(usage)) return 'has a usage that is not an object';
    const problem = readUsage(usage).problem;
    if (problem !== undefined) return `has a usage that is no usage: ${problem}`;
  }
  return undefined;
}
