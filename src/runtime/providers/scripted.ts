/**
 * scripted({ replies }): a deterministic provider for tests, demos and benchmarks. Replies are played
 * in order (the last one repeats), or computed by a function of the request. It honours AbortSignal
 * and an optional delay, so cancellation and timing behave like a real model. `calls` keeps the
 * last 1,000 requests it received, for inspection. A reply that is not a ScriptedReply (`42`, a
 * usage of -5) is refused: a list at creation with a ConfigError, a reply function's answer at the
 * call with a ProviderError of kind 'script'.
 */
import type { TokenUsage } from '../../events/index.js';
import { ConfigError } from '../run/errors.js';
import { optionalNumber, RULES } from '../run/settings.js';
import { ProviderError } from './errors.js';
import { scriptedReplyProblem } from './scriptedReply.js';
import type { CompleteOptions, LLMProvider, LLMRequest, LLMResponse } from './types.js';

export type ScriptedReply =
  | string
  | {
      content?: string;
      toolCalls?: { id?: string; name: string; args?: Record<string, unknown> }[];
      /** Default: estimated from the characters sent and received. `null`: the reply reports no usage. */
      usage?: TokenUsage | null;
      stopReason?: string;
      /** Throw this instead of answering (to script provider failures). */
      error?: Error;
      /** Wait this long before answering (ms). */
      delayMs?: number;
    };

export interface ScriptedOptions {
  replies: ScriptedReply[] | ((request: LLMRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>);
  name?: string;
  /** Default delay for every reply (ms). */
  delayMs?: number;
}

let instances = 0;
const MAX_RECORDED = 1_000;

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
  return {
    name,
    calls,
    async complete(request: LLMRequest, opts?: CompleteOptions): Promise<LLMResponse> {
      const index = callCount++;
      // The last MAX_RECORDED requests are kept for inspection; a long-running demo must not grow.
      if (calls.length === MAX_RECORDED) calls.shift();
      calls.push(request);
      const reply =
        typeof options.replies === 'function'
          ? await options.replies(request, index)
          : options.replies[Math.min(index, options.replies.length - 1)];
      if (reply === undefined) {
        throw new ProviderError({ provider: name, kind: 'script', message: 'scripted provider has no replies' });
      }
      const problem = scriptedReplyProblem(reply);
      if (problem !== undefined) {
        throw new ProviderError({ provider: name, kind: 'script', message: `scripted provider: the reply to call ${index} ${problem}` });
      }
      const normalised = typeof reply === 'string' ? { content: reply } : reply;
      const delay = normalised.delayMs ?? options.delayMs ?? 0;
      await wait(delay, opts?.signal, name);
      if (normalised.error) throw normalised.error;
      const toolCalls = (normalised.toolCalls ?? []).map((call, i) => ({
        id: call.id ?? `call_${instance}_${index}_${i}`,
        name: call.name,
        args: call.args ?? {},
      }));
      const content = normalised.content ?? '';
      return {
        content,
        toolCalls,
        ...(normalised.usage === null
          ? {}
          : { usage: normalised.usage ?? { input: estimateTokens(request), output: Math.max(1, Math.ceil(content.length / 4)) } }),
        stopReason: normalised.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn'),
        model: request.model,
      };
    },
  };
}

function estimateTokens(request: LLMRequest): number {
  let chars = request.systemPrompt?.length ?? 0;
  for (const m of request.messages) chars += m.content.length;
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
