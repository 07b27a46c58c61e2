/**
 * Agent: a ReAct agent with tools, optional skill graph, per-skill brains and escalation.
 *
 *   const agent = Agent.create({ provider, model }).system('Be terse.').tool(lookup).build();
 *   const answer = await agent.run('Where is invoice 42?');
 */
import { mergePricing } from '../cost/index.js';
import {
  ConfigError,
  numberSetting,
  optionNames,
  refuseUnknownOptions,
  RULES,
  RUNNER_FACTS,
  type RunInstrument,
  type RunnerFacts,
} from '../run/index.js';
import {
  resolveBrains,
  loopGuardOf,
  SkillCursor,
  type BrainSpec,
  type EscalationSpec,
  type LoopGuard,
  type LoopGuardOptions,
  type SkillGraph,
} from '../skills/index.js';
import type { Tool, ToolArgs, ToolInputSchema, ToolSource } from '../tools/index.js';
import { TurnRunner } from './turnRunner.js';
import { checkedOutput, type OutputOf, type OutputSchema } from './structuredOutput.js';
import { checkedWindow } from './window.js';
import { DEFAULT_TOOL_LIMITS, modelSettings, profileOf, type AgentConfig, type ToolLimits } from './config.js';
import type { CompiledTool } from './toolRunner.js';
import { checkedTool, isToolSource } from './toolTable.js';
import type { AgentOptions } from './types.js';

export interface SkillGraphOptions extends LoopGuardOptions {
  /** Brains by skill id (an alternative home to defineSkill's provider/model). */
  providers?: Record<string, BrainSpec>;
  escalation?: EscalationSpec;
  /**
   * An instrument that takes part in every run of this agent, such as a skillPathRecorder({ agentId })
   * to read the skill path back (getPath(), getHops(), getTrips()). The loop guard needs none: it is the agent's.
   */
  skillPathRecorder?: RunInstrument;
}

/** Every option Agent.create takes (a name not here is a ConfigError: run/knownOptions.ts). */
const AGENT_OPTIONS = optionNames<AgentOptions>()([
  'provider', 'model', 'id', 'name', 'maxIterations', 'temperature', 'maxTokens', 'modelCallTimeoutMs', 'window', 'maxToolCallsPerReply',
  'toolConcurrency', 'toolTimeoutMs', 'pricing', 'fallbacks', 'toolChoice', 'reasoningEffort', 'output', 'outputRetries',
]);

export class Agent<Output = unknown> extends TurnRunner<Output> {
  readonly kind = 'agent' as const;

  private constructor(
    config: AgentConfig,
    private readonly recorder: RunInstrument | undefined,
  ) {
    super(config);
  }

  override [RUNNER_FACTS](): RunnerFacts {
    return { profile: profileOf(this.config), skillGraph: this.hasSkillGraph };
  }

  /** An `output` schema types `result.output` (a Standard Schema's output type; a JSON Schema: unknown). */
  static create<Schema extends OutputSchema | undefined = undefined>(options: AgentOptions & { output?: Schema }): AgentBuilder<OutputOf<Schema>> {
    if (typeof options !== 'object' || options === null) throw new ConfigError('Agent.create needs options: { provider, model }');
    refuseUnknownOptions(`agent "${options.id ?? 'agent'}"`, options, AGENT_OPTIONS);
    return new AgentBuilder(options);
  }

  /** True when the agent moves over a skill graph (and so has a loop guard that can trip). */
  get hasSkillGraph(): boolean {
    return this.config.cursor !== undefined;
  }

  override ownInstruments(): readonly RunInstrument[] {
    return this.recorder ? [this.recorder] : [];
  }

  /** @internal used by the builder */
  static fromConfig<Output>(config: AgentConfig, recorder: RunInstrument | undefined): Agent<Output> {
    return new Agent<Output>(config, recorder);
  }
}

export class AgentBuilder<Output = unknown> {
  private systemText = '';
  private readonly ownTools: Tool[] = [];
  private readonly sources: ToolSource[] = [];
  private graph?: { graph: SkillGraph; options: SkillGraphOptions };

  constructor(private readonly options: AgentOptions) {}

  system(text: string): this {
    this.systemText = text;
    return this;
  }

  /** A tool of the agent's own; `execute`'s argument type is inferred from a Standard Schema `inputSchema`. */
  tool<Schema extends ToolInputSchema>(tool: Tool<ToolArgs<Schema>, Schema>): this {
    this.ownTools.push(tool);
    return this;
  }

  /**
   * The tools of a source that can change while the agent lives (an MCP connection): read at every
   * iteration, so the model is offered the source's current tools without a rebuild.
   */
  tools(source: ToolSource): this {
    this.sources.push(source);
    return this;
  }

  skillGraph(graph: SkillGraph, options: SkillGraphOptions = {}): this {
    this.graph = { graph, options };
    return this;
  }

  build(): Agent<Output> {
    const o = this.options;
    if (!o.provider || typeof o.provider.complete !== 'function') throw new ConfigError('Agent needs a provider');
    if (!o.model) throw new ConfigError('Agent needs a model');
    const id = o.id ?? 'agent';
    const owner = `agent "${id}"`;
    const maxIterations = numberSetting(owner, 'maxIterations', o.maxIterations, { min: 1, max: 1_000 }, 10);
    const toolLimits: ToolLimits = {
      maxCallsPerReply: numberSetting(owner, 'maxToolCallsPerReply', o.maxToolCallsPerReply, { min: 1, max: 1_000 }, DEFAULT_TOOL_LIMITS.maxCallsPerReply),
      concurrency: numberSetting(owner, 'toolConcurrency', o.toolConcurrency, { min: 1, max: 1_000 }, DEFAULT_TOOL_LIMITS.concurrency),
      timeoutMs: numberSetting(owner, 'toolTimeoutMs', o.toolTimeoutMs, RULES.timeoutMs, DEFAULT_TOOL_LIMITS.timeoutMs),
    };
    const sampling = modelSettings(owner, o);
    const compiled = new Map<string, CompiledTool>();
    const addTool = (tool: Tool, owner: string) => {
      const existing = compiled.get(tool?.name);
      if (existing && existing.tool !== tool) throw new ConfigError(`${owner}: two different tools are named "${tool.name}"`);
      if (!existing) compiled.set(tool.name, checkedTool(tool, owner));
    };
    // What a source lists now is checked like a fixed tool; what it lists later is checked as it comes (toolTable.ts).
    const sourced = new Map<string, Tool>();
    const addSource = (source: ToolSource, owner: string) => {
      if (typeof source?.tools !== 'function') throw new ConfigError(`${owner}: a tool source needs tools()`);
      for (const tool of source.tools()) {
        checkedTool(tool, `${owner}: a tool source`);
        const taken = compiled.get(tool.name)?.tool ?? sourced.get(tool.name);
        if (taken && taken !== tool) throw new ConfigError(`${owner}: two different tools are named "${tool.name}"`);
        sourced.set(tool.name, tool);
      }
    };
    for (const tool of this.ownTools) addTool(tool, `agent "${id}"`);
    const skillSources: [ToolSource, string][] = [];
    let cursor: SkillCursor | undefined;
    let recorder: RunInstrument | undefined;
    let loopGuard: LoopGuard | undefined;
    if (this.graph) {
      const { graph, options } = this.graph;
      for (const skill of graph.skills.values()) {
        for (const entry of skill.tools) {
          if (isToolSource(entry)) skillSources.push([entry, `skill "${skill.id}"`]);
          else addTool(entry, `skill "${skill.id}"`);
        }
      }
      cursor = new SkillCursor(graph, resolveBrains(graph, { provider: o.provider, model: o.model, fallbacks: sampling.fallbacks }, options.providers, options.escalation));
      recorder = options.skillPathRecorder;
      loopGuard = loopGuardOf(options);
      if (options.onTrip === 'escalate' && !options.escalation) {
        throw new ConfigError(`agent "${id}": onTrip 'escalate' needs an escalation brain (skillGraph options.escalation)`);
      }
    }
    for (const source of this.sources) addSource(source, `agent "${id}"`);
    for (const [source, owner] of skillSources) addSource(source, owner);
    const output = checkedOutput(owner, o);
    // A call under the format's name is read as the answer (structuredOutput.ts answerOf): no tool may have it.
    const reserved = output?.format.name;
    if (reserved !== undefined && (compiled.has(reserved) || sourced.has(reserved))) {
      throw new ConfigError(`${owner}: tool "${reserved}": "${reserved}" is the name structured output is sent under (a forced tool on Anthropic, and the call read as the answer): rename the tool, or leave out output`);
    }
    const config: AgentConfig = {
      member: { kind: 'agent', id },
      name: o.name ?? id,
      provider: o.provider,
      model: o.model,
      maxIterations,
      toolLimits,
      ...sampling,
      window: checkedWindow(owner, o.window),
      output,
      pricing: mergePricing(o.pricing),
      systemPrompt: this.systemText,
      tools: compiled,
      ownTools: this.ownTools.map((t) => t.name),
      ownSources: [...this.sources],
      hasToolSources: this.sources.length > 0 || skillSources.length > 0,
      cursor,
      loopGuard,
    };
    return Agent.fromConfig<Output>(config, recorder);
  }
}
