/**
 * The streaming half of the LLMProvider port: the typed parts a provider's `stream()` yields, the one
 * assembler that turns parts into the same LLMResponse `complete()` gives (so the ReAct loop, cost
 * and telemetry see one shape whichever way a reply arrived), and the fallback that streams a
 * provider with only `complete()` as one chunk.
 *
 * Tool-call parts arrive as fragments keyed by `index` (Chat Completions' `tool_calls[i].index`,
 * Messages' content block index): the first fragment of an index carries its id and name, later
 * ones only argument text. Usage is reported by at most one `usage` part per reply (a provider that
 * receives counts in pieces, as Messages does, merges them before yielding); a stream with no
 * `usage` part has unknown usage, never zeros.
 */
import { ProviderError } from './errors.js';
import { argumentsText, callArguments } from './toolArguments.js';
import type { LLMStreamPart, StreamOptions } from './streamPart.js';
import type { LLMProvider, LLMRequest, LLMResponse, ToolCall } from './types.js';
import type { TokenUsage } from '../../events/index.js';
import { toolCallOf } from '../run/index.js';

/** The adapters take the streaming shapes from here, beside the assembler they feed. */
export type { LLMStreamPart, StreamOptions };

/** Builds an LLMResponse from parts, in arrival order; `response()` once the stream has ended. */
export class StreamAssembler {
  private content = '';
  private readonly calls = new Map<number, { id?: string; name?: string; args: string; signature?: string }>();
  private usage?: TokenUsage;
  private finish?: Extract<LLMStreamPart, { type: 'finish' }>;

  constructor(private readonly provider: string) {}

  add(part: LLMStreamPart): void {
    switch (part.type) {
      case 'text':
        this.content += part.delta;
        return;
      case 'tool_call': {
        const call = this.calls.get(part.index) ?? { args: '' };
        if (part.id !== undefined) call.id = part.id;
        if (part.name !== undefined) call.name = part.name;
        if (part.signature !== undefined) call.signature = part.signature;
        call.args += part.argumentsDelta;
        this.calls.set(part.index, call);
        return;
      }
      case 'usage':
        this.usage = part.usage;
        return;
      case 'finish':
        this.finish = part;
        return;
    }
  }

  /** The whole reply; a `malformed_response` ProviderError when the stream ended without a finish
   *  part or a tool call lacks its id or name (arguments that are no JSON object: toolArguments.ts). */
  response(): LLMResponse {
    if (!this.finish) throw this.problem('the stream ended before its finish part');
    const toolCalls: ToolCall[] = [];
    for (const [index, call] of [...this.calls].sort(([a], [b]) => a - b)) {
      if (call.id === undefined || call.name === undefined) throw this.problem(`tool call ${index} has no id or name`);
      const parsed = callArguments(call.args);
      toolCalls.push(toolCallOf(call.id, call.name, parsed.args, { argsText: parsed.argsText, signature: call.signature }));
    }
    return {
      content: this.content,
      toolCalls,
      stopReason: this.finish.stopReason,
      ...(this.usage ? { usage: this.usage } : {}),
      ...(this.finish.model !== undefined ? { model: this.finish.model } : {}),
      ...(this.finish.id !== undefined ? { id: this.finish.id } : {}),
      ...(this.finish.previousResponseId !== undefined ? { previousResponseId: this.finish.previousResponseId } : {}),
    };
  }

  private problem(why: string): ProviderError {
    return new ProviderError({ provider: this.provider, kind: 'malformed_response', message: `${this.provider}: malformed stream: ${why}` });
  }
}

/** A whole tool call as one `tool_call` part at `index` (a reply streamed whole, a Gemini stream's calls). */
export function wholeCall(call: ToolCall, index: number): Extract<LLMStreamPart, { type: 'tool_call' }> {
  const part = { type: 'tool_call', index, id: call.id, name: call.name, argumentsDelta: argumentsText(call) } as const;
  return call.signature === undefined ? part : { ...part, signature: call.signature };
}

/** The parts of a whole reply, as a provider with only `complete()` streams it: one chunk. */
export function* partsOf(response: LLMResponse): Generator<LLMStreamPart> {
  if (response.content !== '') yield { type: 'text', delta: response.content };
  for (const [index, call] of response.toolCalls.entries()) yield wholeCall(call, index);
  if (response.usage) yield { type: 'usage', usage: response.usage };
  yield {
    type: 'finish',
    stopReason: response.stopReason,
    ...(response.model !== undefined ? { model: response.model } : {}),
    ...(response.id !== undefined ? { id: response.id } : {}),
    ...(response.previousResponseId !== undefined ? { previousResponseId: response.previousResponseId } : {}),
  };
}

/** The provider's own stream, or its `complete()` reply as one chunk when it has no `stream()`. */
export async function* streamFrom(provider: LLMProvider, request: LLMRequest, options: StreamOptions = {}): AsyncGenerator<LLMStreamPart> {
  if (provider.stream) {
    yield* provider.stream(request, options);
    return;
  }
  yield* partsOf(await provider.complete(request, options));
}
