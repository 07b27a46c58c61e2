/**
 * The parts a provider's `stream()` yields and the options it takes: the port's streaming shapes, in
 * a file of their own so the port (types.ts) and the assembler (stream.ts) both import them and
 * neither imports the other's importer.
 */
import type { TokenUsage } from '../../events/index.js';

export type LLMStreamPart =
  /** A piece of the reply's text. */
  | { type: 'text'; delta: string }
  /**
   * A piece of one tool call: `id` and `name` on its first fragment, `argumentsDelta` JSON text, and
   * the call's `signature` (ToolCall.signature) on whichever fragment carries it.
   */
  | { type: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta: string; signature?: string }
  /** The reply's token counts, once, when the server reports them. */
  | { type: 'usage'; usage: TokenUsage }
  /** The last part: why the model stopped, and the answering model and response id when known. */
  | { type: 'finish'; stopReason: string; model?: string; id?: string; previousResponseId?: string };

export interface StreamOptions {
  signal?: AbortSignal;
}
