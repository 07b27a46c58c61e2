/** The agent's resolved, build-time configuration that its stages close over. */
import type { MemberRef } from '../../events/index.js';
import type { ModelPrices } from '../cost/index.js';
import type { LLMProvider } from '../providers/index.js';
import { numberSetting, optionalNumber, RULES, type RunnerProfile } from '../run/index.js';
import type { LoopGuard, SkillCursor } from '../skills/index.js';
import type { CompiledTool } from './toolRunner.js';
import type { ToolSource } from '../tools/index.js';

export interface AgentConfig {
  member: MemberRef;
  name: string;
  provider: LLMProvider;
  model: string;
  maxIterations: number;
  toolLimits: ToolLimits;
  temperature?: number;
  maxTokens?: number;
  /** The deadline of each wait on the provider in one model call (AgentOptions documents it). */
  modelCallTimeoutMs: number;
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

/** The model-call settings Agent and LLMCall share, checked the same way for both. */
export function modelSettings(
  owner: string,
  options: { temperature?: unknown; maxTokens?: unknown; modelCallTimeoutMs?: unknown },
): { temperature?: number; maxTokens?: number; modelCallTimeoutMs: number } {
  return {
    temperature: optionalNumber(owner, 'temperature', options.temperature, RULES.temperature),
    maxTokens: optionalNumber(owner, 'maxTokens', options.maxTokens, RULES.maxTokens),
    modelCallTimeoutMs: numberSetting(owner, 'modelCallTimeoutMs', options.modelCallTimeoutMs, RULES.timeoutMs, DEFAULT_MODEL_CALL_TIMEOUT_MS),
  };
}

/** What a runner built on this configuration reports as its profile (its brain and sampling). */
export function profileOf(config: AgentConfig): RunnerProfile {
  const { provider, model, temperature, maxTokens } = config;
  return { provider: provider.name, model, temperature, maxTokens };
}
