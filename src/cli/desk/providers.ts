/**
 * Which models the desk runs on. By default every brain is scripted and seeded (reproducible, free,
 * offline) with the model ids and prices of real models; with OPENAI_API_KEY, OPENAI_BASE_URL (e.g. a
 * local Ollama) or ANTHROPIC_API_KEY the same desk runs on a real model.
 */
import { anthropic, openaiCompatible, scripted, type LLMProvider } from '../../index.js';
import { CliError } from '../args.js';
import { billingBrain, routerBrain, seniorBrain, techBrain } from './brains.js';

export interface DeskModels {
  mode: 'scripted' | 'openai' | 'anthropic';
  router: { provider: LLMProvider; model: string };
  billing: { provider: LLMProvider; model: string };
  tech: { provider: LLMProvider; model: string };
  senior: { provider: LLMProvider; model: string };
}

export interface DeskOptions {
  /** The scripted billing brain runs away inside its iteration cap (billingBrain). */
  runaway?: boolean;
}

/** --runaway scripts a model's behaviour; a real model cannot be told to run away. */
export class RunawayNeedsScriptedModels extends CliError {
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
  const openai = (reply: ReturnType<typeof routerBrain>) => scripted({ name: 'openai', replies: reply });
  const claude = (reply: ReturnType<typeof routerBrain>) => scripted({ name: 'anthropic', replies: reply });
  return {
    mode: 'scripted',
    router: { provider: openai(routerBrain(seed)), model: 'gpt-4o-mini' },
    billing: { provider: openai(billingBrain(seed, { runaway: options.runaway === true })), model: 'gpt-4o-mini' },
    tech: { provider: claude(techBrain(seed)), model: 'claude-haiku-4-5' },
    senior: { provider: claude(seniorBrain(seed)), model: 'claude-sonnet-4-5' },
  };
}
