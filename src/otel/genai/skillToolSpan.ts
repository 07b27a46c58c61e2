/**
 * The agent-skill form of execute_tool. The conventions' current model refines the tool span for a
 * tool that loads a skill into the agent's context (semantic-conventions-genai model/gen-ai/spans.yaml
 * at e9de14b, `gen_ai.execute_tool.load_skill.internal`): the span is
 * `execute_tool {gen_ai.tool.name} {gen_ai.skill.name}` and carries gen_ai.skill.name, set at start
 * (sampling-relevant). read_skill is such a tool: it answers with the skill's instructions and moves
 * the agent there. The v1.41 names have no skill form, so that mode keeps `execute_tool read_skill`;
 * a span has one name, so the both mode writes the current one.
 */
import type { Attributes } from '@opentelemetry/api';
import { ATTR_GEN_AI_SKILL_NAME, boundString, emitsNamesOf, MAX_NAME, toolSpanName, type SemconvMode } from '../encoding/index.js';

/** The tool span's name in `semconv`; a skill load's gen_ai.skill.name goes into `attributes`. */
export function toolSpanNameIn(semconv: SemconvMode, call: { toolName: string; skill?: string }, attributes: Attributes): string {
  const tool = boundString(call.toolName, MAX_NAME);
  if (call.skill === undefined || !emitsNamesOf(semconv, 'current')) return toolSpanName(tool);
  const skill = boundString(call.skill, MAX_NAME);
  attributes[ATTR_GEN_AI_SKILL_NAME] = skill;
  return `${toolSpanName(tool)} ${skill}`;
}
