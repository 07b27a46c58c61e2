/**
 * defineSkill: a named piece of expertise an agent can be in. While the skill cursor is on it, its
 * body joins the system prompt and its tools join the agent's (fixed tools, or tool sources read at
 * every iteration, such as an MCP connection); it may bring its own brain (provider and model), so
 * cost is attributed to the skill that spent it.
 */
import type { Tool, ToolSource } from '../tools/index.js';
import type { LLMProvider } from '../providers/index.js';
import { ConfigError } from '../run/index.js';

export interface SkillDefinition {
  id: string;
  description: string;
  body: string;
  tools?: (Tool | ToolSource)[];
  provider?: LLMProvider;
  model?: string;
}

export interface Skill {
  readonly id: string;
  readonly description: string;
  readonly body: string;
  readonly tools: readonly (Tool | ToolSource)[];
  readonly provider?: LLMProvider;
  readonly model?: string;
}

const ID = /^[a-z0-9][a-z0-9_-]*$/i;

export function defineSkill(definition: SkillDefinition): Skill {
  if (!ID.test(definition.id ?? '')) {
    throw new ConfigError(`skill id "${definition.id}" must be letters, digits, '-' or '_'`);
  }
  if (!definition.description?.trim()) throw new ConfigError(`skill "${definition.id}" needs a description`);
  if (typeof definition.body !== 'string') throw new ConfigError(`skill "${definition.id}" needs a body`);
  return Object.freeze({ ...definition, tools: Object.freeze([...(definition.tools ?? [])]) });
}
