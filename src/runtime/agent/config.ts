/** The agent's resolved, build-time configuration that its stages close over. */
import type { MemberRef } from '../../events/index.js';
import type { ModelPrices } from '../cost/index.js';
import type { LLMProvider, ReasoningEffort, ToolChoice } from '../providers/index.js';
import { ConfigError, numberSetting, optionalNumber, RULES, type RunnerProfile } from '../run/index.js';
import { checkedFallbacks, type FallbackBrain, type LoopGuard, type SkillCursor } from '../skills/index.js';
import type { CompiledTool } from './toolRunner.js';
import type { ToolSource } from '../tools/index.js';

import type { StructuredOutput } from './structuredOutput.js';
import type { ConversationWindow } from './window.js';

export interface AgentConfig {
  member: MemberRef;
  name: string;
  provider: LLMProvider;
  model: string;
  maxIterations: number;
  toolLimits: ToolLimits;
  temperature?: number;
  maxTokens?: number;
  toolChoice?: ToolChoice;
  reasoningEffort?: ReasoningEffort;
  /** The default brain's fallbacks (AgentOptions documents them). */
  fallbacks: readonly FallbackBrain[];
  /** The deadline of each wait on the provider in one model call (AgentOptions documents it). */
  modelCallTimeoutMs: number;
  /** The structured output asked for (structuredOutput.ts); absent: a plain-text answer. */
  output?: StructuredOutput;
  /** What of a long conversation each model call is sent (window.ts); absent: all of it. */
  window?: ConversationWindow;
  pricing: ModelPrices;
  systemPrompt: string;
  /** Every fixed tool the agent may ever expose (its own and its skills'), by name. */
  tools: ReadonlyMap<string, CompiledTool>;
  /** Names of the agent's own fixed tools (always visible). */
  ownTools: readonly string[];
  /** The agent's own tool sources (always visible), read at every iteration (toolTable.ts). */
  ownSources: readonly ToolSource[];
  /** True when the agent or one of its skills has a tool source: its tool slot can change at any iteration. */
  hasToolSources: boolean;
  cursor?: SkillCursor;
  /** The loop guard over the cursor's moves (with a cursor only). */
  loopGuard?: LoopGuard;
}

/** How an agent runs the tool calls of one model reply (AgentOptions documents each). */
export interface ToolLimits {
  maxCallsPerReply: number;
  concurrency: number;
  timeoutMs: number;
}

/** The defaults of AgentOptions' tool settings (types.ts documents each). */
export const DEFAULT_TOOL_LIMITS: Readonly<ToolLimits> = { maxCallsPerReply: 32, concurrency: 8, timeoutMs: 120_000 };

/**
 * The default modelCallTimeoutMs, 10 minutes: above the longest an HTTP provider with its default
 * transport settings may take on its own (providers/transport.ts: 120 s per attempt, 3 attempts,
 * waits between them capped at 30 s: 420 s), so this runtime bound never cuts their own deadline and
 * retries short; it is there for a provider that has no deadline of its own.
 */
export const DEFAULT_MODEL_CALL_TIMEOUT_MS = 600_000;

const TOOL_CHOICES = new Set(['auto', 'none', 'required']);
const REASONING_EFFORTS = new Set(['minimal', 'low', 'medium', 'high']);

/** The model-call settings Agent and LLMCall share, checked the same way for both. */
export function modelSettings(
  owner: string,
  options: { temperature?: unknown; maxTokens?: unknown; modelCallTimeoutMs?: unknown; toolChoice?: unknown; reasoningEffort?: unknown; fallbacks?: unknown },
): Pick<AgentConfig, 'temperature' | 'maxTokens' | 'modelCallTimeoutMs' | 'toolChoice' | 'reasoningEffort' | 'fallbacks'> {
  const { toolChoice, reasoningEffort } = options;
  const named = typeof toolChoice === 'object' && toolChoice !== null && typeof (toolChoice as { name?: unknown }).name === 'string' && (toolChoice as { name: string }).name !== '';
  if (toolChoice !== undefined && !TOOL_CHOICES.has(toolChoice as string) && !named) {
    throw new ConfigError(`${owner}: toolChoice must be 'auto', 'none', 'required' or { name } of a tool`, { field: 'toolChoice' });
  }
  if (reasoningEffort !== undefined && !REASONING_EFFORTS.has(reasoningEffort as string)) {
    throw new ConfigError(`${owner}: reasoningEffort must be 'minimal', 'low', 'medium' or 'high'`, { field: 'reasoningEffort' });
  }
  return {
    temperature: optionalNumber(owner, 'temperature', options.temperature, RULES.temperature),
    maxTokens: optionalNumber(owner, 'maxTokens', options.maxTokens, RULES.maxTokens),
    modelCallTimeoutMs: numberSetting(owner, 'modelCallTimeoutMs', options.modelCallTimeoutMs, RULES.timeoutMs, DEFAULT_MODEL_CALL_TIMEOUT_MS),
    toolChoice: toolChoice as ToolChoice | undefined,
    reasoningEffort: reasoningEffort as ReasoningEffort | undefined,
    fallbacks: options.fallbacks === undefined ? [] : checkedFallbacks(owner, options.fallbacks),
  };
}

/** What a runner built on this configuration reports as its profile (its brain and sampling). */
export function profileOf(config: AgentConfig): RunnerProfile {
  const { provider, model, temperature, maxTokens } = config;
  return { provider: provider.name, model, temperature, maxTokens };
}
