/** The agent's resolved, build-time configuration that its stages close over. */
import type { MemberRef } from '../../events/index.js';
import type { PricingTable } from '../cost/index.js';
import type { LLMProvider } from '../providers/index.js';
import type { RunnerProfile } from '../run/index.js';
import type { SkillCursor } from '../skills/cursor.js';
import type { RouteGuard } from '../skills/loopGuard.js';
import type { CompiledTool } from './toolRunner.js';

export interface AgentConfig {
  member: MemberRef;
  name: string;
  provider: LLMProvider;
  model: string;
  maxIterations: number;
  temperature?: number;
  maxTokens?: number;
  pricing: PricingTable;
  systemPrompt: string;
  /** Every tool the agent may ever expose (its own and its skills'), by name. */
  tools: ReadonlyMap<string, CompiledTool>;
  /** Names of the agent's own tools (always visible). */
  ownTools: readonly string[];
  cursor?: SkillCursor;
  /** The loop guard over the cursor's moves (with a cursor only). */
  routeGuard?: RouteGuard;
}

/** What a runner built on this configuration reports as its profile (its brain and sampling). */
export function profileOf(config: AgentConfig): RunnerProfile {
  const { provider, model, temperature, maxTokens } = config;
  return { provider: provider.name, model, temperature, maxTokens };
}
