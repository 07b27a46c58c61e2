/**
 * swarm: agents hand the conversation to one another. Before every turn `pick` names the agent that
 * takes it (given the current message, the last agent and the hand-offs so far); that agent's reply
 * becomes the current message, and so on until pick names nobody, names someone outside the roster,
 * or the hand-off budget is spent. Every agent after the first gets the conversation the swarm was
 * given (the user's request is never lost) and then the hand-off as one user message (handoffThread). Every dispatch to an agent counts as a hand-off, the first one
 * included. Each decision is a composition.route_decided (matched 'pick_fn', or 'none' when pick
 * names nobody; 'llm' in an llmSwarm, whose router chose), and composition.exit records why the
 * swarm stopped:
 *
 *   status 'no_route'          stopReason 'no_route'          pick named nobody: the answer is the current message
 *   status 'no_route'          stopReason 'unknown_agent'     pick named an id outside the roster (an llmSwarm's
 *                                                             router: 'no_route', its message is the answer)
 *   status 'budget_exhausted'  stopReason 'budget_exhausted'  pick asked for a turn beyond maxHandoffs
 *
 * The answer is the last agent's reply, however the swarm stopped (an llmSwarm's router may be asked
 * to rewrite it: SwarmPrelude.rewritesAnswer); with no turn at all, the current message.
 *
 *   const desk = swarm({ id: 'desk', agents: [{ id: 'triage', runner: triage }, { id: 'billing', runner: billing }],
 *     pick: ({ lastAgent }) => (lastAgent === undefined ? 'triage' : lastAgent === 'triage' ? 'billing' : undefined) });
 */
import { flowChart, type FlowChart } from 'footprintjs';
import { emit, type EventPayloads, type MemberRef } from '../../events/index.js';
import { appendFrom, appendWithOrigins, ConfigError, currentRun, newId, numberSetting, originAt, originsOf, quietLogger, Runner, stage, runtimeChart, type LLMMessage, type MessageOrigin, type MountedMember } from '../run/index.js';
import { Composition } from './composition.js';
import { closingStage, openingStage, type CompositionScope, type CompositionState, type ExitStatus } from './lifecycle.js';
import { answerKey, inputKey } from './lineage.js';
import { asText, checkMember } from './members.js';

export const DEFAULT_MAX_HANDOFFS = 10;
export const MAX_HANDOFFS_CEILING = 100;

/** The swarm's own stage ids (agents' mount ids must not collide with them). */
const STAGE = { enter: 'enter', route: 'route', stop: 'stop', settle: 'settle', continue: 'continue', again: 'again', exit: 'exit' } as const;
const STAGES = Object.values(STAGE);

/** What the swarm's pick function sees before a turn. */
export interface PickInput {
  message: string;
  lastAgent?: string;
  handoffs: number;
  /** What the swarm's prelude (llmSwarm's router) chose this turn, when it has one and it chose. */
  routed?: string;
}

/** Names the agent that takes the next turn, or nobody (undefined: the swarm is done). */
export type PickFn = (input: PickInput) => string | undefined;

/** The swarm's options: `pick` and its agents. */
export type SwarmOptions = SwarmSettings & { pick: PickFn };

interface SwarmSettings {
  id?: string;
  name?: string;
  /** `description`: what the agent does (telemetry reports it as gen_ai.agent.description). */
  agents: { id: string; runner: Runner; description?: string }[];
  /** Most agent turns one run may dispatch (default 10, at most 100). */
  maxHandoffs?: number;
}

/**
 * A member that runs before every routing decision (llmSwarm mounts its router here): `input`
 * composes what it is asked, `read` takes its output apart into the next current message and the
 * agent it chose, which reaches pick() through the swarm's state as `routed`. The swarm then
 * reports the one decision, matched 'llm', with the prelude's reason as evidence.
 */
export interface SwarmPrelude extends MountedMember {
  input: (turn: { request: string; current: string; lastAgent?: string }) => Record<string, unknown>;
  read: (output: unknown) => { message: string; chosen?: string; reason?: string };
  /** The prelude's closing message, not the last agent's reply, is the swarm's answer (llmSwarm's rewriteAnswer). */
  rewritesAnswer?: boolean;
}

/** Why the swarm stops, once it knows (absent while it goes on). */
interface StopCause {
  status: ExitStatus;
  reason: string;
}

interface SwarmState extends CompositionState {
  /** The message the swarm was given. */
  request: string;
  /** The conversation the chosen agent is given (ChartInput.thread). */
  agentThread?: string;
  iteration: number;
  handoffs: number;
  /** Absent before the first turn. */
  lastAgent?: string;
  lastReply?: string;
  /** The reply of the turn that just ran (written by the agent's mount). */
  reply: string;
  /** What the prelude chose this turn (null: nobody) and why. */
  routed?: string | null;
  routedReason?: string | null;
  stop?: StopCause;
}

export function swarm(options: SwarmOptions): Swarm {
  return Swarm.fromOptions(options);
}

export class Swarm extends Composition {
  readonly kind = 'swarm' as const;
  readonly id: string;
  readonly name: string;
  private readonly agents: readonly MountedMember[];
  private readonly pick: PickFn;
  private readonly maxHandoffs: number;

  private constructor(
    options: SwarmOptions,
    private readonly prelude?: SwarmPrelude,
  ) {
    super();
    this.id = options.id ?? 'swarm';
    this.name = options.name ?? this.id;
    const owner = `swarm "${this.id}"`;
    if (!Array.isArray(options.agents) || options.agents.length === 0) throw new ConfigError(`${owner} needs at least one agent`);
    // Typed to need it; checked anyway, for callers the types do not reach.
    const pick: unknown = options.pick;
    if (typeof pick !== 'function') throw new ConfigError(`${owner} needs a pick function`);
    const maxHandoffs = numberSetting(owner, 'maxHandoffs', options.maxHandoffs, { min: 1, max: MAX_HANDOFFS_CEILING }, DEFAULT_MAX_HANDOFFS);
    const reserved = prelude ? [...STAGES, prelude.mountId] : STAGES;
    const agents: MountedMember[] = [];
    for (const agent of options.agents) {
      checkMember(owner, agent?.id, agent?.runner, agents, reserved);
      agents.push({ mountId: agent.id, runner: agent.runner, description: typeof agent.description === 'string' ? agent.description : undefined });
    }
    this.agents = agents;
    this.pick = pick as PickFn;
    this.maxHandoffs = maxHandoffs;
  }

  /** @internal swarm() and llmSwarm() build through here */
  static fromOptions(options: SwarmOptions, prelude?: SwarmPrelude): Swarm {
    return new Swarm(options, prelude);
  }

  override members(): readonly MountedMember[] {
    return this.prelude ? [{ mountId: this.prelude.mountId, runner: this.prelude.runner }, ...this.agents] : this.agents;
  }

  /** Its agents are chosen; the prelude (an LLM router) runs before every choice and is not. */
  override routesTo(mountId: string): boolean {
    return mountId !== this.prelude?.mountId;
  }

  protected buildChart(): FlowChart {
    const m: MemberRef = { kind: this.kind, id: this.id };
    const { agents, prelude } = this;
    const startPass = (scope: CompositionScope<SwarmState>, iteration: number) => {
      scope.iteration = iteration;
      emit(scope, 'footprint.composition.iteration', { compositionId: m.id, iteration });
    };
    let chart = flowChart<SwarmState>(
      'Enter',
      openingStage<SwarmState>(m, {
        childCount: agents.length,
        opened: (scope) => {
          scope.request = scope.current;
          scope.handoffs = 0;
          startPass(scope, 1);
        },
      }),
      STAGE.enter,
    );
    if (prelude) {
      chart = chart.addSubFlowChartNext(
        prelude.mountId,
        prelude.runner.chart(),
        prelude.runner.name,
        {
          // The router is asked about what `current` holds (the request, or the last agent's reply).
          inputMapper: (state: SwarmState) => ({
            messageOrigin: state.currentFrom,
            answerTo: answerKey(state, prelude.mountId),
            ...prelude.input({ request: state.request, current: state.current, lastAgent: state.lastAgent }),
          }),
          outputMapper: (output: unknown, state: SwarmState) => {
            const { message, chosen, reason } = prelude.read(output);
            // null, not absent: a mapped-out key left undefined would keep the previous turn's value.
            return { current: message, currentFrom: answerKey(state, prelude.mountId), routed: chosen ?? null, routedReason: reason ?? null };
          },
        },
      );
    }
    let dispatch = chart.addDeciderFunction('Route', stage(m, STAGE.route, (scope: CompositionScope<SwarmState>) => this.decide(scope, m)), STAGE.route);
    for (const agent of agents) {
      dispatch = dispatch.addSubFlowChartBranch(
        agent.mountId,
        agent.runner.chart(),
        agent.runner.name,
        {
          inputMapper: (state: SwarmState) => {
            const lineage = { messageOrigin: state.currentFrom, answerTo: answerKey(state, agent.mountId) };
            return state.agentThread === undefined ? { message: state.current, ...lineage } : { message: state.current, thread: state.agentThread, ...lineage };
          },
          outputMapper: (output: unknown) => ({ reply: asText(output) }),
        },
      );
    }
    return runtimeChart(dispatch
      .addFunctionBranch(
        STAGE.stop,
        'Stop',
        stage(m, STAGE.stop, (scope: CompositionScope<SwarmState>) => {
          // The answer is the last agent's reply: never a message meant for an agent, nor (unless asked) a router's rewrite of it.
          if (scope.lastReply !== undefined && !(prelude?.rewritesAnswer && scope.stop?.reason === 'no_route')) {
            scope.current = scope.lastReply;
            scope.currentFrom = answerKey(scope, scope.lastAgent!);
          }
        }),
      )
      .end()
      .addFunction(
        'Settle',
        stage(m, STAGE.settle, (scope: CompositionScope<SwarmState>) => {
          if (scope.stop) return;
          scope.handoffs = scope.handoffs + 1;
          scope.lastReply = scope.reply;
          scope.current = scope.reply;
          scope.currentFrom = answerKey(scope, scope.lastAgent!);
        }),
        STAGE.settle,
      )
      .addDeciderFunction(
        'Continue',
        stage(m, STAGE.continue, (scope: CompositionScope<SwarmState>) => (scope.stop ? STAGE.exit : STAGE.again)),
        STAGE.continue,
      )
      .addFunctionBranch(STAGE.again, 'Again', stage(m, STAGE.again, (scope: CompositionScope<SwarmState>) => startPass(scope, scope.iteration + 1)))
      .loopTo(prelude ? prelude.mountId : STAGE.route)
      .addFunctionBranch(
        STAGE.exit,
        'Exit',
        closingStage<SwarmState>(m, {
          close: (scope) => ({ answer: scope.current, answerFrom: scope.currentFrom, status: scope.stop?.status, stopReason: scope.stop?.reason }),
        }),
      )
      .end()
      .setLogger(quietLogger)
      .build());
  }

  /** Asks pick for the next agent and reports the decision; returns the branch to take. */
  private decide(scope: CompositionScope<SwarmState>, m: MemberRef): string {
    const handoffs = scope.handoffs;
    const lastAgent = scope.lastAgent;
    scope.stop = undefined;
    const routed = this.prelude ? (scope.routed ?? undefined) : undefined;
    const requested = this.pick({ message: scope.current, lastAgent, handoffs, routed });
    // With a prelude, its model made the choice: the decision names it and carries its reason.
    const prelude = this.prelude;
    const reason = scope.routedReason ?? undefined;
    const decided = (payload: Omit<EventPayloads['footprint.composition.route_decided'], 'compositionId' | 'kind'>) =>
      emit(scope, 'footprint.composition.route_decided', {
        compositionId: m.id,
        kind: m.kind,
        ...payload,
        ...(prelude ? { matched: 'llm' as const, router: prelude.mountId, evidence: { reason, ...(payload.evidence as object | undefined) } } : {}),
      });
    // Who chose: the pick function, or an llmSwarm's router (its pick only reads the router's decision).
    const chooser = prelude ? 'the router' : 'pick';
    const stop = (status: ExitStatus, reason: string) => {
      scope.stop = { status, reason };
      return STAGE.stop;
    };

    if (requested === undefined || requested === null || requested === '') {
      decided({ chosen: '', matched: 'none', rationale: `${chooser} named no agent after ${handoffs} hand-off(s): the swarm is done` });
      return stop('no_route', 'no_route');
    }
    if (typeof requested !== 'string' || !this.agents.some((a) => a.mountId === requested)) {
      decided({
        chosen: '',
        matched: 'pick_fn',
        inRoster: false,
        rationale: `${chooser} named ${JSON.stringify(requested)}, which is not in the roster: the swarm stops`,
        evidence: { requested },
      });
      // A router's message for an agent that does not exist is its answer, as when it names nobody.
      return stop('no_route', prelude ? 'no_route' : 'unknown_agent');
    }
    if (handoffs >= this.maxHandoffs) {
      decided({
        chosen: '',
        matched: 'pick_fn',
        inRoster: true,
        rationale: `${chooser} asked for "${requested}" but the hand-off budget (${this.maxHandoffs}) is spent`,
        evidence: { requested, maxHandoffs: this.maxHandoffs },
      });
      return stop('budget_exhausted', 'budget_exhausted');
    }
    decided({
      chosen: requested,
      matched: 'pick_fn',
      inRoster: true,
      rationale: `${chooser} chose "${requested}" (hand-off ${handoffs + 1} of at most ${this.maxHandoffs})`,
    });
    scope.agentThread = this.handoffThread(scope, lastAgent);
    scope.lastAgent = requested;
    return requested;
  }

  /**
   * What the chosen agent is given: the conversation the swarm was given (so the user's request is
   * never lost), then, after a hand-off, one user message with what it is handed: the previous agent's
   * reply (labelled with its id), or the router's message in an llmSwarm. The first agent of a swarm
   * without a router gets the conversation as it came. Each message keeps its origin: the given
   * conversation's own, and the hand-off's is where `current` came from (that agent's or the router's call).
   */
  private handoffThread(scope: CompositionScope<SwarmState>, lastAgent: string | undefined): string | undefined {
    const store = currentRun(scope)?.store;
    if (!store || (lastAgent === undefined && !this.prelude)) return scope.givenThread;
    const run = currentRun(scope)!;
    const given = scope.givenThread === undefined ? [] : store.list<LLMMessage>(scope.givenThread);
    const input = originAt(store, inputKey(scope)) ?? { origin: 'run_input', producer: { kind: 'run', id: run.runId } };
    const opening: readonly LLMMessage[] = given.length > 0 ? given : [{ role: 'user', content: scope.request }];
    const openingOrigins: readonly MessageOrigin[] = given.length > 0 ? originsOf(store, scope.givenThread!, run.runId) : [input];
    const handed = this.prelude || lastAgent === undefined ? scope.current : `Agent "${lastAgent}" replied:\n${scope.current}`;
    const key = `handoff:${newId('handoff')}`;
    appendWithOrigins(store, key, opening, openingOrigins);
    appendFrom(store, key, originAt(store, scope.currentFrom) ?? input, { role: 'user', content: handed });
    return key;
  }
}
