/**
 * LLMCall: one model call, no tools. It runs the same flowchart as an Agent with no tools and a single
 * iteration, so it emits the same model-call, cost and turn events and traces the same way, as its
 * own member kind ('llm_call').
 *
 *   const summarize = LLMCall.create({ provider, model }).system('Summarize.').build();
 */
import type { MemberRef } from '../../events/index.js';
import { mergePricing, type PricingTable } from '../cost/index.js';
import type { LLMProvider, ReasoningEffort, ToolChoice } from '../providers/index.js';
import type { FallbackBrain } from '../skills/index.js';
import {
  ConfigError,
  optionNames,
  refuseUnknownOptions,
  RUNNER_FACTS,
  type RunnerFacts,
} from '../run/index.js';
import { TurnRunner } from './turnRunner.js';
import { checkedOutput, type OutputOf, type OutputSchema } from './structuredOutput.js';
import { checkedWindow, type ConversationWindow } from './window.js';
import { DEFAULT_TOOL_LIMITS, modelSettings, profileOf, type AgentConfig } from './config.js';

export interface LLMCallOptions {
  provider: LLMProvider;
  model: string;
  id?: string;
  name?: string;
  /** Sampling temperature (0 to 2). */
  temperature?: number;
  /** Most tokens the call may produce (1 to 100 000 000). */
  maxTokens?: number;
  /** Deadline of the wait on the provider in ms (1 to 2 147 483 647, default 600 000): AgentOptions.modelCallTimeoutMs. */
  modelCallTimeoutMs?: number;
  pricing?: PricingTable;
  /** Providers asked in order after a retryable failure: AgentOptions.fallbacks. */
  fallbacks?: readonly FallbackBrain[];
  /** Whether and which tool the model must call: AgentOptions.toolChoice (an LLMCall offers no tools, so 'none' or 'auto'). */
  toolChoice?: ToolChoice;
  /** How much a reasoning model reasons: AgentOptions.reasoningEffort. */
  reasoningEffort?: ReasoningEffort;
  /** What of a long conversation the call is sent (AgentOptions.window). */
  window?: ConversationWindow;
  /** The answer as a validated object on `result.output`: AgentOptions.output. */
  output?: OutputSchema;
  /** How many times an invalid structured answer is asked again: AgentOptions.outputRetries. */
  outputRetries?: number;
}

/** Every option LLMCall.create takes (a name not here is a ConfigError: run/knownOptions.ts). */
const LLM_CALL_OPTIONS = optionNames<LLMCallOptions>()([
  'provider', 'model', 'id', 'name', 'temperature', 'maxTokens', 'modelCallTimeoutMs', 'pricing', 'fallbacks', 'toolChoice', 'reasoningEffort',
  'window', 'output', 'outputRetries',
]);

export class LLMCall<Output = unknown> extends TurnRunner<Output> {
  readonly kind = 'llm_call' as const;

  private constructor(config: AgentConfig) {
    super(config);
  }

  override [RUNNER_FACTS](): RunnerFacts {
    return { profile: profileOf(this.config) };
  }

  /** An `output` schema types `result.output` (a Standard Schema's output type; a JSON Schema: unknown). */
  static create<Schema extends OutputSchema | undefined = undefined>(options: LLMCallOptions & { output?: Schema }): LLMCallBuilder<OutputOf<Schema>> {
    if (typeof options !== 'object' || options === null) throw new ConfigError('LLMCall.create needs options: { provider, model }');
    refuseUnknownOptions(`llm_call "${options.id ?? 'llm-call'}"`, options, LLM_CALL_OPTIONS);
    return new LLMCallBuilder(options);
  }

  /** @internal used by the builder */
  static fromConfig<Output>(config: AgentConfig): LLMCall<Output> {
    return new LLMCall<Output>(config);
  }
}

export class LLMCallBuilder<Output = unknown> {
  private systemText = '';

  constructor(private readonly options: LLMCallOptions) {}

  system(text: string): this {
    this.systemText = text;
    return this;
  }

  build(): LLMCall<Output> {
    return buildLLMCall<Output>(this.options, this.systemText);
  }
}

/**
 * The LLMCall `options` and `systemText` describe. `member` is the member its stages belong to: its own
 * (`llm_call`), or the runner it is part of (a router step's model call is the router's, as its events
 * are: a failure in it names the router). Internal: LLMCallBuilder.build() and the router build through here.
 */
export function buildLLMCall<Output = unknown>(o: LLMCallOptions, systemText: string, member?: MemberRef): LLMCall<Output> {
  if (!o.provider || typeof o.provider.complete !== 'function') throw new ConfigError('LLMCall needs a provider');
  if (!o.model) throw new ConfigError('LLMCall needs a model');
  const id = o.id ?? 'llm-call';
  const sampling = modelSettings(`llm_call "${id}"`, o);
  return LLMCall.fromConfig<Output>({
    member: member ?? { kind: 'llm_call', id },
    name: o.name ?? id,
    provider: o.provider,
    model: o.model,
    maxIterations: 1,
    toolLimits: DEFAULT_TOOL_LIMITS,
    ...sampling,
    window: checkedWindow(`llm_call "${id}"`, o.window),
    output: checkedOutput(`llm_call "${id}"`, o),
    pricing: mergePricing(o.pricing),
    systemPrompt: systemText,
    tools: new Map(),
    ownTools: [],
    ownSources: [],
    hasToolSources: false,
  });
}
