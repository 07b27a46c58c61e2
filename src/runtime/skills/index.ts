/** Skill graphs: skills, the graph builder, brains and the cursor an agent moves with. */
export { defineSkill, type Skill, type SkillDefinition } from './skill.js';
export { skillGraph, SkillGraphBuilder, type SkillGraph, type RouteEdge, type LastToolResult } from './graph.js';
export { type BrainSpec, type EscalationSpec } from './brains.js';
export { READ_SKILL } from './cursor.js';
