/**
 * llmRouter: an LLM picks which agent of a roster handles a message. `step` is a runner that makes
 * ONE model call through LLMCall's chart, mounted inside the step and attributed to the router (its
 * llm_start/llm_end carry member kind 'router' and the router's id, and a failure of it names the router), parses the answer
 * and outputs the message it hands on; `decisions()` lists the recent decisions.
 *
 * Mounted on its own (run it, or a step of a Sequence) the step is the routing act: it reports the
 * decision (composition.route_decided, matched 'llm', `router` its id). Mounted as llmSwarm's router it is asked with
 * `handoff: true` and returns a RoutedMessage instead: the swarm reads the choice from that output
 * (its state, never a lookup by message text) and reports the one decision itself.
 *
 * An id the model invents routes nowhere: the decision says inRoster: false with chosen '' (so the
 * chosen label stays bounded by the roster) and the raw id goes to the evidence and to the decision's
 * `unknownAgentId`. The model's `reason` is recorded in the trace and the decision only; it is never
 * put into any prompt.
 *
 *   const router = llmRouter({ provider, model: 'gpt-4o-mini', agents: [
 *     { id: 'billing', description: 'Invoices, refunds, payment methods.' },
 *     { id: 'tech', description: 'Log-in problems, errors, outages.' } ] });
 *   const triaged = await router.step.run('My invoice is wrong');   // .text: the message it hands on
 */
import { flowChart, type FlowChart, type TypedScope } from 'footprintjs';
import { emit, type MemberRef } from '../../events/index.js';
import { buildLLMCall, type LLMCall } from '../agent/index.js';
import { answerKey, mountOptions, openLineage, recordAnswer, type LineageState } from '../compositions/index.js';
import type { PricingTable } from '../cost/index.js';
import type { LLMProvider } from '../providers/index.js';
import { ConfigError, quietLogger, Runner, RUNNER_FACTS, stage, stageInput, runtimeChart, type RunnerFacts } from '../run/index.js';
import { parseRoutingDecision } from './decision.js';
import { DecisionMemory, type RoutingDecision } from './memory.js';
import { compileRouterPrompt, type RosterEntry } from './prompt.js';

export interface LlmRouterOptions {
  provider: LLMProvider;
  model: string;
  agents: readonly RosterEntry[];
  /** Extra guidance, placed before the roster; the binding rules always come last. */
  instruction?: string;
  id?: string;
  /** Default 0: routing should be repeatable. */
  temperature?: number;
  /** Deadline of the router's model call in ms (AgentOptions.modelCallTimeoutMs; default 600 000). */
  modelCallTimeoutMs?: number;
  pricing?: PricingTable;
}

export interface LlmRouter {
  readonly id: string;
  readonly systemPrompt: string;
  readonly step: RouterStep;
  decisions: () => RoutingDecision[];
}

/** What the step returns when asked with `handoff: true`: the message and the choice it carries. */
export interface RoutedMessage {
  message: string;
  /** The chosen agent; what the model named, in the roster or not (absent: no agent, the message is the answer). */
  requested?: string;
  reason?: string;
}

/** The router step's input: the message to route, and whether the asker takes the choice itself. */
export interface RouterInput {
  message: string;
  handoff?: boolean;
}

interface RouterState extends LineageState {
  question: string;
  /** Never set: the router's model is asked the question alone. */
  givenThread?: string;
  /** Asked with `handoff: true` (input keys are read-only in scope, hence another name). */
  handsChoiceOn: boolean;
  raw: string;
  output: string;
}

export function llmRouter(options: LlmRouterOptions): LlmRouter {
  const id = options.id ?? 'router';
  const known = checkRoster(id, options.agents);
  const systemPrompt = compileRouterPrompt(options.agents, options.instruction);
  // The model call's stages are the router's, as its events are: a failure in it names the router.
  const llm = buildLLMCall(
    {
      provider: options.provider,
      model: options.model,
      id,
      name: `${id} model`,
      temperature: options.temperature ?? 0,
      modelCallTimeoutMs: options.modelCallTimeoutMs,
      pricing: options.pricing,
    },
    systemPrompt,
    { kind: 'router', id },
  );

  const memory = new DecisionMemory();
  const step = new RouterStep(id, llm, (decision) => memory.record(decision), known);
  return {
    id,
    systemPrompt,
    step,
    decisions: () => memory.recent(),
  };
}

/** Where the router mounts its model call (LLMCall's chart). */
const MODEL_CALL_MOUNT = 'llm';

/** The router as a runner: Ask -> the model call (LLMCall's chart) -> Decide. */
export class RouterStep extends Runner {
  readonly kind = 'router' as const;
  readonly name: string;

  constructor(
    readonly id: string,
    private readonly llm: LLMCall,
    private readonly record: (decision: RoutingDecision) => void,
    private readonly known: ReadonlySet<string>,
  ) {
    super();
    this.name = id;
  }

  /** The model it asks, and where that call mounts: telemetry shows it as the agent invocation it is. */
  override [RUNNER_FACTS](): RunnerFacts {
    return { profile: this.llm[RUNNER_FACTS]().profile, modelCallMount: MODEL_CALL_MOUNT };
  }

  protected buildChart(): FlowChart {
    const m: MemberRef = { kind: this.kind, id: this.id };
    return runtimeChart(flowChart<RouterState>(
      'Ask',
      stage(m, 'ask', (scope: TypedScope<RouterState>) => {
        const args = stageInput<Record<keyof RouterInput, unknown>>(scope);
        scope.question = String(args.message ?? '');
        scope.handsChoiceOn = args.handoff === true;
        openLineage(scope);
      }),
      'ask',
    )
      .addSubFlowChartNext(
        MODEL_CALL_MOUNT,
        this.llm.chart(),
        this.llm.name,
        mountOptions<RouterState>(
          MODEL_CALL_MOUNT,
          (state) => state.question,
          (output) => ({ raw: output }),
        ),
      )
      .addFunction('Decide', stage(m, 'decide', (scope: TypedScope<RouterState>) => this.decide(scope, m)), 'decide')
      .setLogger(quietLogger)
      .build());
  }

  private decide(scope: TypedScope<RouterState>, m: MemberRef): string | RoutedMessage {
    const input = scope.question;
    const parsed = parseRoutingDecision(scope.raw, input);
    const named = parsed.agentId;
    const inRoster = named !== undefined && this.known.has(named);
    this.record({
      routerId: m.id,
      input,
      agentId: inRoster ? named : undefined,
      unknownAgentId: named !== undefined && !inRoster ? named : undefined,
      message: parsed.message,
      reason: parsed.reason,
    });
    scope.output = parsed.message;
    // The message it hands on is its model's: the router's chat call.
    recordAnswer(scope, answerKey(scope, MODEL_CALL_MOUNT));
    // Asked by a swarm, the step hands its choice on; the swarm reports the one decision.
    if (scope.handsChoiceOn) return { message: parsed.message, requested: named, reason: parsed.reason };
    emit(scope, 'footprint.composition.route_decided', {
      compositionId: m.id,
      kind: m.kind,
      chosen: inRoster ? named : '',
      matched: 'llm',
      router: m.id,
      inRoster: named === undefined ? undefined : inRoster,
      rationale:
        named === undefined
          ? 'the router chose no agent: its message is the final answer'
          : inRoster
            ? `the router chose "${named}"`
            : `the router named ${JSON.stringify(named)}, which is not in the roster: routing nowhere`,
      evidence: { reason: parsed.reason, requested: inRoster ? undefined : named },
    });
    return parsed.message;
  }
}

function checkRoster(routerId: string, agents: readonly RosterEntry[]): Set<string> {
  const owner = `llmRouter "${routerId}"`;
  if (!Array.isArray(agents) || agents.length === 0) throw new ConfigError(`${owner} needs at least one agent`);
  const ids = new Set<string>();
  for (const agent of agents) {
    if (typeof agent?.id !== 'string' || agent.id.trim() === '') throw new ConfigError(`${owner}: every agent needs an id`);
    if (typeof agent.description !== 'string' || agent.description.trim() === '') {
      throw new ConfigError(`${owner}: agent "${agent.id}" needs a description (it is what the router reads)`);
    }
    if (ids.has(agent.id)) throw new ConfigError(`${owner}: two agents are named "${agent.id}"`);
    ids.add(agent.id);
  }
  return ids;
}
