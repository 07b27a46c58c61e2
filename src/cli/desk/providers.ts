/**
 * Which models the desk runs on. By default every brain is scripted and seeded (reproducible, free,
 * offline) with the model ids and prices of real models; with OPENAI_API_KEY, OPENAI_BASE_URL (e.g. a
 * local Ollama) or ANTHROPIC_API_KEY the same desk runs on a real model. A streamed desk's scripted
 * brains reply in chunks.
 */
import { anthropic, openaiCompatible, ProviderError, scripted, type FallbackBrain, type LLMProvider, type LLMRequest } from '../../index.js';
import { CliError } from '../args.js';
import { billingBrain, readContext, routerBrain, seniorBrain, techBrain } from './brains.js';
import { hash } from './random.js';

export interface DeskModels {
  mode: 'scripted' | 'openai' | 'anthropic';
  router: { provider: LLMProvider; model: string };
  billing: { provider: LLMProvider; model: string };
  tech: { provider: LLMProvider; model: string; fallbacks?: readonly FallbackBrain[] };
  senior: { provider: LLMProvider; model: string };
}

/**
 * How the scripted brains stream (--stream): about a token (4 characters) per chunk, a few
 * milliseconds apart, after the reply's seeded delay. Only a streamed desk is cut into chunks, so a
 * run that completes its replies in one piece keeps its timing.
 */
export const STREAMED_REPLIES = { chunkChars: 4, chunkDelayMs: 6 } as const;

type Brain = ReturnType<typeof routerBrain>;

/**
 * Scripted replies arrive as real ones do: from the event loop (a real reply is I/O), one per turn
 * of it. Otherwise a desk running flat out is one unbroken chain of promise continuations (with many
 * runs at once, each turn of the loop would carry a segment of every run), the event loop rarely
 * reaches its poll phase, and a SIGTERM or Ctrl-C, timers and file writes wait on the load
 * (test/cli/stopUnderLoad.test.ts measures it). Released one per turn, a signal waits for one run's
 * segment at most, whatever the concurrency.
 */
class EventLoopTurns {
  private readonly waiting: (() => void)[] = [];

  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length === 1) setImmediate(this.release);
    });
  }

  private readonly release = (): void => {
    this.waiting.shift()?.();
    if (this.waiting.length > 0) setImmediate(this.release);
  };
}

function fromTheEventLoop(turns: EventLoopTurns, brain: Brain): (request: Parameters<Brain>[0]) => Promise<ReturnType<Brain>> {
  return (request) => turns.next().then(() => brain(request));
}

export interface DeskOptions {
  /** The scripted billing brain runs away inside its iteration cap (billingBrain). */
  runaway?: boolean;
  /** The scripted brains reply in chunks (STREAMED_REPLIES), for --stream. */
  stream?: boolean;
}

/** --runaway scripts a model's behaviour; a real model cannot be told to run away. */
class RunawayNeedsScriptedModels extends CliError {
  constructor() {
    super('--runaway runs on the scripted models only: unset OPENAI_API_KEY, OPENAI_BASE_URL and ANTHROPIC_API_KEY');
  }
}

export function deskModels(seed: number, env: NodeJS.ProcessEnv = process.env, options: DeskOptions = {}): DeskModels {
  const real = Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL || env.ANTHROPIC_API_KEY);
  if (real && options.runaway) throw new RunawayNeedsScriptedModels();
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    const provider = openaiCompatible({
      baseURL: env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
      apiKey: env.OPENAI_API_KEY,
      name: env.OPENAI_BASE_URL && !env.OPENAI_API_KEY ? 'ollama' : 'openai',
    });
    const small = env.FOOTPRINT_DEMO_MODEL ?? (env.OPENAI_API_KEY ? 'gpt-4o-mini' : 'llama3.1');
    const large = env.FOOTPRINT_DEMO_STRONG_MODEL ?? (env.OPENAI_API_KEY ? 'gpt-4o' : small);
    return { mode: 'openai', router: { provider, model: small }, billing: { provider, model: small }, tech: { provider, model: small }, senior: { provider, model: large } };
  }
  if (env.ANTHROPIC_API_KEY) {
    const provider = anthropic({ apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL });
    return {
      mode: 'anthropic',
      router: { provider, model: 'claude-haiku-4-5' },
      billing: { provider, model: 'claude-haiku-4-5' },
      tech: { provider, model: 'claude-haiku-4-5' },
      senior: { provider, model: 'claude-sonnet-4-5' },
    };
  }
  const chunking = options.stream ? STREAMED_REPLIES : {};
  const turns = new EventLoopTurns();
  const openai = (brain: Brain) => scripted({ name: 'openai', replies: fromTheEventLoop(turns, brain), ...chunking });
  const claude = (brain: Brain) => scripted({ name: 'anthropic', replies: fromTheEventLoop(turns, brain), ...chunking });
  return {
    mode: 'scripted',
    router: { provider: openai(routerBrain(seed)), model: 'gpt-4o-mini' },
    billing: { provider: openai(billingBrain(seed, { runaway: options.runaway === true })), model: 'gpt-4o-mini' },
    // The tech agent's provider has outages; its fallback serves the same (scripted) model behaviour.
    tech: { provider: withOutages(seed, claude(techBrain(seed))), model: 'claude-haiku-4-5', fallbacks: [{ provider: openai(techBrain(seed)), model: 'gpt-4.1-mini' }] },
    senior: { provider: claude(seniorBrain(seed)), model: 'claude-sonnet-4-5' },
  };
}

/** One ticket in OUTAGE_EVERY meets an outage of the tech agent's provider on its first model call. */
export const OUTAGE_EVERY = 4;

/**
 * `provider`, answering 503 (retryable) to the first model call of one ticket in OUTAGE_EVERY (seeded
 * by ticket): the tech agent falls back to its next provider (AgentOptions.fallbacks), so the demo's
 * traces show a fallback's RETRY_OF link and footprint.llm.fallbacks counts it.
 */
function withOutages(seed: number, provider: LLMProvider): LLMProvider {
  const down = (request: LLMRequest): boolean => {
    const ctx = readContext(request);
    return ctx.step === 0 && hash(`${seed}:${ctx.ticketId}:outage`) % OUTAGE_EVERY === 0;
  };
  const outage = () => new ProviderError({ provider: provider.name, kind: 'http', status: 503, retryable: true, message: `${provider.name}: 503 Service Unavailable (a scripted outage)` });
  const inner = provider.stream?.bind(provider);
  return {
    name: provider.name,
    complete: (request, options) => (down(request) ? Promise.reject(outage()) : provider.complete(request, options)),
    ...(inner
      ? {
          stream: async function* (request: LLMRequest, options?: Parameters<NonNullable<LLMProvider['stream']>>[1]) {
            if (down(request)) throw outage();
            yield* inner(request, options);
          },
        }
      : {}),
  };
}
