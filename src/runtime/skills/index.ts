/** Skill graphs: skills, the graph builder, brains, the cursor an agent moves with and its loop guard. */
export { defineSkill, type Skill, type SkillDefinition } from './skill.js';
export { skillGraph, SkillGraphBuilder, type SkillGraph, type RouteEdge, type LastToolResult } from './graph.js';
export { type BrainSpec, type EscalationSpec } from './brains.js';
export { READ_SKILL } from './cursor.js';
export type { OnTrip, RouteGuardOptions, Spend } from './loopGuard.js';
