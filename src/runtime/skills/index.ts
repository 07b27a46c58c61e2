/**
 * skills/ — skill graphs: skills, the graph builder, brains, the cursor an agent moves with and its
 * loop guard. Depends on events/, run/, providers/ (a brain's LLMProvider) and tools/ (a skill's
 * tools); never on agent/, which uses it.
 */
export { defineSkill, type Skill, type SkillDefinition } from './skill.js';
export { skillGraph, SkillGraphBuilder, type SkillGraph, type SkillEdge, type LastToolResult } from './graph.js';
export { checkedFallbacks, resolveBrains, type Brain, type BrainSpec, type EscalationSpec, type FallbackBrain } from './brains.js';
export { READ_SKILL, READ_SKILL_SCHEMA, SkillCursor, type SkillTurnState } from './cursor.js';
export {
  guardHop,
  guardRejection,
  loopGuardOf,
  type Finding,
  type OnTrip,
  type LoopGuard,
  type LoopGuardOptions,
  type TurnGuard,
} from './loopGuard.js';
export type { Spend } from './spend.js';
