/**
 * The tools an agent offers at one iteration, by name, in the order the model sees them: its own
 * fixed tools, then its tool sources, then the current skill's tools and sources. A fixed tool was
 * checked and compiled when the agent was built; a source (tools/, ToolSource: an MCP server's
 * list) is read here, every time, so a tool the source gained is offered and one it dropped is not.
 * The tool slot (stages/context.ts), CallLLM's tool specs and ToolCalls' lookup all go through offeredTools(), so
 * the model is offered, described and run the same tools; a name the table no longer has is an
 * unknown tool for the model, like any other.
 *
 * A source's tool is checked like a fixed one (a name, execute(), a valid timeoutMs, a schema that
 * compiles) and compiled once per Tool object. The agent's build checks what its sources list then
 * and refuses a bad tool with a ConfigError; a tool a source gains later that fails the check, or
 * whose name is taken (by an earlier tool, read_skill, or structured output's format), is left out of the offer instead: a run in
 * progress has no one to throw to.
 */
import { ConfigError, optionalNumber, RULES } from '../run/index.js';
import { READ_SKILL, type SkillTurnState } from '../skills/index.js';
import { checkToolSchema, type Tool, type ToolSource } from '../tools/index.js';
import type { AgentConfig } from './config.js';
import type { CompiledTool } from './toolRunner.js';

/** The tools offered now, by name (read_skill, the cursor's own, is not among them). Do not mutate. */
export function offeredTools(config: AgentConfig, skill: SkillTurnState | undefined): ReadonlyMap<string, CompiledTool> {
  if (config.hasToolSources) return offerOf(config, skill);
  // Without a tool source the offer depends on the current skill alone: built once per skill, not
  // at every model call and tool iteration.
  let bySkill = fixedOffers.get(config);
  if (!bySkill) fixedOffers.set(config, (bySkill = new Map()));
  const current = config.cursor && skill ? skill.current : undefined;
  let offered = bySkill.get(current);
  if (!offered) bySkill.set(current, (offered = offerOf(config, skill)));
  return offered;
}

/** The offers of agents without tool sources, by agent and current skill. */
const fixedOffers = new WeakMap<AgentConfig, Map<string | undefined, ReadonlyMap<string, CompiledTool>>>();

function offerOf(config: AgentConfig, skill: SkillTurnState | undefined): ReadonlyMap<string, CompiledTool> {
  const offered = new Map<string, CompiledTool>();
  const addFixed = (name: string) => {
    if (!offered.has(name)) offered.set(name, config.tools.get(name)!);
  };
  for (const name of config.ownTools) addFixed(name);
  // The name structured output is sent under is taken too: a call under it is read as the answer.
  const reserved = config.output?.format.name;
  for (const source of config.ownSources) addFromSource(offered, source, reserved);
  if (config.cursor && skill) {
    for (const entry of config.cursor.tools(skill)) {
      if (isToolSource(entry)) addFromSource(offered, entry, reserved);
      else addFixed(entry.name);
    }
  }
  return offered;
}

export function isToolSource(entry: Tool | ToolSource): entry is ToolSource {
  return typeof (entry as Partial<ToolSource>).tools === 'function' && typeof (entry as Partial<Tool>).execute !== 'function';
}

/**
 * A tool checked and compiled, or a ConfigError saying why it cannot be one (`owner` names where it
 * came from). The result is kept per Tool object, so a source read at every iteration compiles once.
 */
export function checkedTool(tool: Tool, owner: string): CompiledTool {
  const known = compiledByTool.get(tool);
  if (known) return known;
  if (!tool?.name || typeof tool.execute !== 'function') throw new ConfigError(`${owner}: a tool needs a name and execute()`);
  if (tool.name === READ_SKILL) throw new ConfigError(`${owner}: "${READ_SKILL}" is reserved for skill graphs`);
  optionalNumber(`${owner}: tool "${tool.name}"`, 'timeoutMs', tool.timeoutMs, RULES.timeoutMs);
  const compiled: CompiledTool = { tool, schema: checkToolSchema(tool.inputSchema, `${owner}: tool "${tool.name}"`) };
  compiledByTool.set(tool, compiled);
  return compiled;
}

const compiledByTool = new WeakMap<Tool, CompiledTool>();
/** Tools a source listed that failed the check: left out, and not checked again. */
const refused = new WeakSet<Tool>();

function addFromSource(offered: Map<string, CompiledTool>, source: ToolSource, reserved: string | undefined): void {
  for (const tool of source.tools()) {
    if (refused.has(tool) || offered.has(tool?.name) || tool?.name === READ_SKILL || (reserved !== undefined && tool?.name === reserved)) continue;
    try {
      offered.set(tool.name, checkedTool(tool, 'a tool source'));
    } catch {
      refused.add(tool);
    }
  }
}
