/**
 * The names a run's model and tool spans take in its semconv mode, where the conventions' current
 * model and v1.41 differ on those spans (docs/conventions.md):
 *
 * - The agent-skill form of execute_tool. The current model refines the tool span for a tool that
 *   loads a skill into the agent's context (semantic-conventions-genai model/gen-ai/spans.yaml at
 *   e9de14b, `gen_ai.execute_tool.load_skill.internal`): `execute_tool {gen_ai.tool.name}
 *   {gen_ai.skill.name}` with gen_ai.skill.name, set at start (sampling-relevant). read_skill is such
 *   a tool: it answers with the skill's instructions and moves the agent there. The v1.41 names have
 *   no skill form (`execute_tool read_skill`); a span has one name, so the both mode writes the current one.
 * - Cache writes: `gen_ai.usage.cache_write.input_tokens` (semantic-conventions-genai #440), which
 *   v1.41 called `gen_ai.usage.cache_creation.input_tokens` (semconvMode.ts spells it; the both mode
 *   writes each once).
 */
import type { Attributes } from '@opentelemetry/api';
import type { TokenUsage } from '../../events/index.js';
import {
  ATTR_GEN_AI_SKILL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_WRITE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  boundString,
  emitsNamesOf,
  MAX_NAME,
  secondSpellingIn,
  spellingIn,
  toolSpanName,
  type SemconvMode,
} from '../encoding/index.js';

export class SpanNames {
  private readonly cacheWrite: string;
  private readonly cacheWriteAlso?: string;

  constructor(private readonly semconv: SemconvMode) {
    this.cacheWrite = spellingIn(semconv, ATTR_GEN_AI_USAGE_CACHE_WRITE_INPUT_TOKENS);
    this.cacheWriteAlso = secondSpellingIn(semconv, ATTR_GEN_AI_USAGE_CACHE_WRITE_INPUT_TOKENS);
  }

  /** A tool span's name; a skill load's gen_ai.skill.name goes into `attributes`. */
  tool(call: { toolName: string; skill?: string }, attributes: Attributes): string {
    const tool = boundString(call.toolName, MAX_NAME);
    if (call.skill === undefined || !emitsNamesOf(this.semconv, 'current')) return toolSpanName(tool);
    const skill = boundString(call.skill, MAX_NAME);
    attributes[ATTR_GEN_AI_SKILL_NAME] = skill;
    return `${toolSpanName(tool)} ${skill}`;
  }

  /** The usage the provider reported (a call without a report gets no usage attributes at all). */
  usage(usage: TokenUsage): Attributes {
    const attributes: Attributes = {
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: usage.input,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: usage.output,
    };
    if (usage.cacheRead !== undefined) attributes[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS] = usage.cacheRead;
    if (usage.cacheWrite !== undefined) {
      attributes[this.cacheWrite] = usage.cacheWrite;
      if (this.cacheWriteAlso !== undefined) attributes[this.cacheWriteAlso] = usage.cacheWrite;
    }
    if (usage.reasoning !== undefined) attributes[ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS] = usage.reasoning;
    return attributes;
  }
}
