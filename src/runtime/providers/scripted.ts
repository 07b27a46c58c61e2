/**
 * scripted({ replies }): a deterministic provider for tests, demos and benchmarks. Replies are played
 * in order (the last one repeats), or computed by a function of the request. It honours AbortSignal
 * and an optional delay, so cancellation and timing behave like a real model. `calls` keeps the
 * last 1,000 requests it received, for inspection. A reply that is not a ScriptedReply (`42`, a
 * usage of -5) is refused: a list at creation with a ConfigError, a reply function's answer at the
 * call with a ProviderError of kind 'script'.
 *
 * It streams too (scriptedChunks.ts says how a reply is cut into chunks): `delayMs` before the first
 * chunk, `chunkDelayMs` between two chunks, so a test knows when every chunk arrives. complete()
 * answers after the same total time, in one piece.
 */
import type { TokenUsage } from '../../events/index.js';
import { ConfigError, isThenable, optionalNumber, RULES } from '../run/index.js';
import { ProviderError } from './errors.js';
import { chunksOf } from './scriptedChunks.js';
import { scriptedReplyProblem } from './scriptedReply.js';
import type { LLMStreamPart, StreamOptions } from './stream.js';
import { messageText, type CompleteOptions, type LLMProvider, type LLMRequest, type LLMResponse } from './types.js';

export type ScriptedReply =
  | string
  | {
      content?: string;
      /** The text in the pieces it streams in (content is their concatenation; if both are given they must agree). */
      chunks?: string[];
      toolCalls?: { id?: string; name: string; args?: Record<string, unknown> }[];
      /** Default: estimated from the characters sent and received. `null`: the reply reports no usage. */
      usage?: TokenUsage | null;
      stopReason?: string;
      /** Throw this instead of answering (to script provider failures). */
      error?: Error;
      /** With `error`: a stream delivers this many chunks first, then throws it (complete() just throws). */
      errorAfterChunks?: number;
      /** Wait this long before answering, or before the first chunk (ms). */
      delayMs?: number;
      /** Wait this long between two chunks of a stream (ms). */
      chunkDelayMs?: number;
    };

export interface ScriptedOptions {
  replies: ScriptedReply[] | ((request: LLMRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>);
  name?: string;
  /** Default delay for every reply (ms). */
  delayMs?: number;
  /** Default wait between two chunks of a streamed reply (ms). */
  chunkDelayMs?: number;
  /**
   * Cut every streamed text without `chunks`, and every tool call's arguments, into pieces of this
   * many characters (default: each in one piece).
   */
  chunkChars?: number;
}

let instances = 0;
const MAX_RECORDED = 1_000;

type ReplyObject = Exclude<ScriptedReply, string>;

/** One call's reply, resolved and checked, with the response it gives and how it streams. */
interface Played {
  reply: ReplyObject;
  response: LLMResponse;
  /** The chunks it streams in (made only when asked: a complete() call never encodes arguments). */
  chunks: () => LLMStreamPart[];
  delayMs: number;
  chunkDelayMs: number;
}

export function scripted(options: ScriptedOptions): LLMProvider & { readonly calls: LLMRequest[] } {
  const calls: LLMRequest[] = [];
  // Tool call ids must be unique across providers: two brains can serve one conversation.
  const instance = ++instances;
  let callCount = 0;
  const name = options.name ?? 'scripted';
  optionalNumber(`scripted provider "${name}"`, 'delayMs', options.delayMs, RULES.delayMs);
  if (Array.isArray(options.replies)) {
    options.replies.forEach((reply: unknown, index) => {
      const problem = scriptedReplyProblem(reply);
      if (problem !== undefined) throw new ConfigError(`scripted provider "${name}": reply ${index} ${problem}`);
    });
  } else if (typeof options.replies !== 'function') {
    throw new ConfigError(`scripted provider "${name}": replies must be a list or a function`);
  }
  for (const key of ['delayMs', 'chunkDelayMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw new ConfigError(`scripted provider "${name}": ${key} must be a finite number >= 0`);
  }
  if (options.chunkChars !== undefined && !(Number.isInteger(options.chunkChars) && options.chunkChars >= 1)) {
    throw new ConfigError(`scripted provider "${name}": chunkChars must be a whole number >= 1`);
  }

  /** The call's reply: at once unless a reply function answers with a promise (no promise for a reply at hand). */
  function play(request: LLMRequest): Played | Promise<Played> {
    const index = callCount++;
    // The last MAX_RECORDED requests are kept for inspection; a long-running demo must not grow.
    if (calls.length === MAX_RECORDED) calls.shift();
    calls.push(request);
    if (typeof options.replies !== 'function') return played(request, index, options.replies[Math.min(index, options.replies.length - 1)]);
    const reply = options.replies(request, index);
    return isThenable(reply) ? Promise.resolve(reply).then((answered) => played(request, index, answered)) : played(request, index, reply);
  }

  function played(request: LLMRequest, index: number, reply: ScriptedReply | undefined): Played {
    if (reply === undefined) {
      throw new ProviderError({ provider: name, kind: 'script', message: 'scripted provider has no replies' });
    }
    const problem = scriptedReplyProblem(reply);
    if (problem !== undefined) {
      throw new ProviderError({ provider: name, kind: 'script', message: `scripted provider: the reply to call ${index} ${problem}` });
    }
    const normalised = typeof reply === 'string' ? { content: reply } : reply;
    const toolCalls = (normalised.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${instance}_${index}_${i}`,
      name: call.name,
      args: call.args ?? {},
    }));
    const content = normalised.content ?? normalised.chunks?.join('') ?? '';
    const response: LLMResponse = {
      content,
      toolCalls,
      stopReason: normalised.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn'),
      model: request.model,
      ...(normalised.usage === null
        ? {}
        : { usage: normalised.usage ?? { input: estimateTokens(request), output: Math.max(1, Math.ceil(content.length / 4)) } }),
    };
    return {
      reply: normalised,
      response,
      chunks: () => chunksOf(response, { text: normalised.chunks, chars: options.chunkChars }),
      delayMs: normalised.delayMs ?? options.delayMs ?? 0,
      chunkDelayMs: normalised.chunkDelayMs ?? options.chunkDelayMs ?? 0,
    };
  }

  return {
    name,
    calls,
    async complete(request: LLMRequest, opts?: CompleteOptions): Promise<LLMResponse> {
      const playing = play(request);
      const played = playing instanceof Promise ? await playing : playing;
      const gaps = played.chunkDelayMs > 0 ? Math.max(0, streamable(played, name).length - 1) : 0;
      const delay = played.delayMs + gaps * played.chunkDelayMs;
      // No timer (and no promise) for a reply that is due now, as for a streamed chunk below.
      if (delay > 0 || opts?.signal?.aborted) await wait(delay, opts?.signal, name);
      if (played.reply.error) throw played.reply.error;
      return played.response;
    },
    async *stream(request: LLMRequest, opts?: StreamOptions): AsyncGenerator<LLMStreamPart> {
      const playing = play(request);
      const played = playing instanceof Promise ? await playing : playing;
      const { reply, response } = played;
      const chunks = streamable(played, name);
      const failAt = reply.error ? (reply.errorAfterChunks ?? 0) : Infinity;
      for (const [i, chunk] of chunks.entries()) {
        const delay = i === 0 ? played.delayMs : played.chunkDelayMs;
        // No timer (and no promise) for a chunk that is due now: a benchmark's chunks cost only the stream.
        if (delay > 0 || opts?.signal?.aborted) await wait(delay, opts?.signal, name);
        if (i === failAt) throw reply.error;
        yield chunk;
      }
      if (chunks.length === 0) await wait(played.delayMs, opts?.signal, name);
      if (reply.error) throw reply.error;
      if (response.usage) yield { type: 'usage', usage: response.usage };
      yield { type: 'finish', stopReason: response.stopReason, ...(response.model !== undefined ? { model: response.model } : {}) };
    },
  };
}

/** The reply's chunks; a ProviderError of kind 'script' when its tool arguments have no JSON text to stream (a cycle). */
function streamable(played: Played, provider: string): LLMStreamPart[] {
  try {
    return played.chunks();
  } catch (error) {
    throw new ProviderError({ provider, kind: 'script', message: `scripted provider: a tool call's args cannot be streamed as JSON: ${String(error)}`, cause: error });
  }
}

function estimateTokens(request: LLMRequest): number {
  let chars = request.systemPrompt?.length ?? 0;
  for (const m of request.messages) chars += messageText(m.content).length;
  return Math.max(1, Math.ceil(chars / 4));
}

function wait(ms: number, signal: AbortSignal | undefined, provider: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(aborted(provider, signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(provider, signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function aborted(provider: string, signal: AbortSignal): ProviderError {
  return new ProviderError({ provider, kind: 'aborted', message: 'model request cancelled', cause: signal.reason });
}
