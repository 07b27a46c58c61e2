/**
 * Per-skill brains and the escalation brain. Which provider and model serve a call follows one
 * precedence: escalation (when the turn escalated) > the current skill's brain > the agent's default.
 * Resolved and checked once, at build time: a brain for a skill the graph does not have, a skill whose
 * two possible homes (defineSkill and the graph's providers map) disagree, a provider other than the
 * agent's without a model, and an escalation threshold below 1 are all refused.
 *
 * Each brain has its fallbacks: the providers asked in order when a call's retryable failure has used
 * the provider's own retries (agent/stages/callLLM.ts). A skill brain has its own list, or else the
 * agent's; the escalation brain has none.
 */
import type { BrainChoice } from '../../events/index.js';
import type { LLMProvider } from '../providers/index.js';
import { checkNumber, ConfigError } from '../run/index.js';
import type { SkillGraph } from './graph.js';

export interface BrainSpec {
  provider?: LLMProvider;
  model?: string;
  /** Asked in order when this brain's call fails retryably after its retries (default: the agent's fallbacks). */
  fallbacks?: readonly FallbackBrain[];
}

/** A provider and model asked when the one before failed retryably. */
export interface FallbackBrain {
  readonly provider: LLMProvider;
  readonly model: string;
}

export interface EscalationSpec {
  provider: LLMProvider;
  model?: string;
  afterRefusals: number;
}

export interface Brain {
  provider: LLMProvider;
  model: string;
  via: BrainChoice['via'];
  skillId?: string;
  /** Asked in order after a retryable failure of this brain (or of the fallback before). */
  fallbacks: readonly FallbackBrain[];
}

export interface Brains {
  readonly fallback: Brain;
  readonly escalation?: Brain & { afterRefusals: number };
  forSkill(skillId: string | undefined): Brain;
}

export function resolveBrains(
  graph: SkillGraph,
  fallback: { provider: LLMProvider; model: string; fallbacks: readonly FallbackBrain[] },
  providers: Record<string, BrainSpec> | undefined,
  escalation: EscalationSpec | undefined,
): Brains {
  const base: Brain = { ...fallback, via: 'default' };
  for (const skillId of Object.keys(providers ?? {})) {
    if (!graph.skills.has(skillId)) {
      throw new ConfigError(`skill brains: "${skillId}" has a brain but is not a skill of the graph`);
    }
  }
  const bySkill = new Map<string, Brain>();
  for (const [skillId, skill] of graph.skills) {
    const own: BrainSpec | undefined =
      skill.provider || skill.model ? { provider: skill.provider, model: skill.model } : undefined;
    const mapped = providers?.[skillId];
    if (own && mapped && (own.provider !== mapped.provider || own.model !== mapped.model)) {
      throw new ConfigError(
        `skill brains: "${skillId}" has a brain in defineSkill and a different one in the graph's providers map; keep one`,
      );
    }
    const spec = own ?? mapped;
    if (spec) {
      const fallbacks = spec.fallbacks === undefined ? fallback.fallbacks : checkedFallbacks(`skill "${skillId}"`, spec.fallbacks);
      bySkill.set(skillId, { ...complete(spec, fallback, `skill "${skillId}"`), via: 'skill', skillId, fallbacks });
    }
  }
  let escalationBrain: Brains['escalation'];
  if (escalation) {
    checkNumber('escalation', 'afterRefusals', escalation.afterRefusals, { min: 1, max: 1_000 });
    escalationBrain = {
      ...complete(escalation, fallback, 'the escalation brain'),
      via: 'escalation',
      afterRefusals: escalation.afterRefusals,
      fallbacks: [],
    };
  }
  return {
    fallback: base,
    escalation: escalationBrain,
    forSkill: (skillId) => (skillId !== undefined && bySkill.get(skillId)) || base,
  };
}

/** The fallbacks as given, each checked to have a provider and a model. */
export function checkedFallbacks(owner: string, fallbacks: unknown): readonly FallbackBrain[] {
  if (!Array.isArray(fallbacks)) throw new ConfigError(`${owner}: fallbacks must be a list of { provider, model }`, { field: 'fallbacks' });
  fallbacks.forEach((entry: Partial<FallbackBrain> | undefined, index) => {
    if (typeof entry?.provider?.complete !== 'function' || typeof entry.model !== 'string' || entry.model === '') {
      throw new ConfigError(`${owner}: fallbacks[${index}] needs a provider and a model`, { field: 'fallbacks' });
    }
  });
  return fallbacks as readonly FallbackBrain[];
}

function complete(spec: BrainSpec, fallback: { provider: LLMProvider; model: string }, what: string) {
  const provider = spec.provider ?? fallback.provider;
  if (provider !== fallback.provider && !spec.model) {
    throw new ConfigError(`${what}: a provider other than the agent's needs a model`);
  }
  return { provider, model: spec.model ?? fallback.model };
}
