/**
 * The calls of one reply that get an answer: the first `maxToolCallsPerReply` run, and the one after
 * them stands for every call past the cap (refused once, saying how many were not run). The calls
 * after it cost nothing: no event, no span, no message. The conversation keeps the model's reply with
 * these calls only, so every call id it holds has its result (the providers refuse a conversation with
 * a tool call left unanswered), whether the model asked for 33 calls or 10,000.
 */
import type { ToolCall } from '../../../providers/index.js';

export function answeredCalls(calls: readonly ToolCall[], maxCallsPerReply: number): ToolCall[] {
  return calls.slice(0, maxCallsPerReply + 1);
}
