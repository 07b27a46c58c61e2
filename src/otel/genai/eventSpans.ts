/**
 * The semantic layer: typed events (from the run's hub, at emit time) to spans and span events, the
 * same in both detail modes. Agents and compositions name the span that stands for them (the layout
 * decides which span that is), model and tool calls get their GenAI spans, and every other event
 * becomes a span event on the emitting stage's span (or its member's), feeding the run's roll-ups.
 */
import { exportedView, type EventType, type ExportedEvent, type TypedEvent } from '../../events/index.js';
import {
  answerMessage,
  eventAttributes,
  ATTR_FOOTPRINT_COMPOSITION_STATUS,
  ATTR_FOOTPRINT_COST_USD,
  ATTR_FOOTPRINT_ITERATIONS,
  ATTR_FOOTPRINT_LLM_CALLS,
  ATTR_FOOTPRINT_TURN_OUTCOME,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  secondSpellingIn,
  spellingIn,
  textMessage,
  valueSpellingIn,
  emitsNamesOf,
  spanTime,
  type SemconvMode,
  turnFinishReason,
} from '../encoding/index.js';
import { CallSpans, EVAL_ROUTER_CHOICE, EVAL_SKILL_JUMP, type CallSpansInit } from './callSpans.js';
import { agentProfileIdentity, compositionIdentity, routerDecisionIdentity } from './memberIdentity.js';
import { emitterSpan, type MemberLayout } from '../placement/index.js';
import { agentKey, type RunLineage } from './lineage.js';
import type { RunRollups } from './runRollups.js';

/** The error.type of a router answer that is no usable decision (src/runtime/routing/errors.ts). */
const ROUTING_DECISION_ERROR = 'RoutingDecisionError';

/** What one typed event does to spans (see EventSpans.rules). Methods, so one table holds every event type; they take the run's EventSpans, so one table serves every run. */
interface SpanRule<K extends EventType> {
  before?(spans: EventSpans, event: ExportedEvent<K>): void;
  spanEvent: boolean;
  after?(spans: EventSpans, event: ExportedEvent<K>): void;
}

type SpanRules = { readonly [K in EventType]: SpanRule<K> };

/** What the call spans take, with a layout that places member spans (agents, compositions) too. */
export interface EventSpansInit extends CallSpansInit {
  layout: MemberLayout;
  /** Content capture: the views of the events (events/exportedView.ts) hold content only when it is on. */
  capture: boolean;
  /** How renamed span-event names are spelled (encoding/semconvMode.ts). */
  semconv: SemconvMode;
}

export class EventSpans {
  private readonly layout: MemberLayout;
  private readonly rollups: RunRollups;
  private readonly capture: boolean;
  private readonly semconv: SemconvMode;
  private readonly conversationId?: string;
  private readonly genai: CallSpans;
  private readonly lineage: RunLineage;

  constructor(init: EventSpansInit) {
    this.lineage = init.lineage;
    this.layout = init.layout;
    this.rollups = init.rollups;
    this.capture = init.capture;
    this.semconv = init.semconv;
    this.conversationId = init.conversationId;
    this.genai = new CallSpans(init);
  }

  onEvent(received: TypedEvent): void {
    const rule: SpanRule<EventType> = EventSpans.rules[received.type];
    // An event no rule reads (a stream's chunk) gets no view.
    if (!rule.spanEvent && rule.before === undefined && rule.after === undefined) return;
    // Every rule below sees the event as it may be exported: content only under capture.
    const event = exportedView(received, this.capture);
    rule.before?.(this, event);
    if (rule.spanEvent) this.addEvent(event);
    rule.after?.(this, event);
  }

  /**
   * What each typed event does to spans, one entry per event of the catalog (a new event does not
   * typecheck until it has one): `before` runs before the event is recorded (it may open the span
   * the event lands on, or feed the run's roll-ups), `spanEvent` says whether the event becomes a
   * span event on its stage's (or member's) span, `after` runs once it is recorded (it may end that
   * span). Model and tool calls become spans of their own instead of span events. One table for
   * every run (each rule takes the run's EventSpans): built per run, it was some 60 closures and
   * objects of garbage per turn.
   */
  private static readonly rules: SpanRules = {
    'footprint.agent.turn_start': { before: (s, e) => s.turnStart(e), spanEvent: true },
    'footprint.agent.turn_end': { spanEvent: true, after: (s, e) => s.turnEnd(e) },
    'footprint.agent.iteration_start': { spanEvent: true },
    'footprint.agent.iteration_cap': { spanEvent: true },
    'footprint.agent.output_invalid': { spanEvent: true },
    'footprint.agent.iteration_end': {
      spanEvent: true,
      after: (s, e) => {
        if (e.meta.member.kind === 'agent') s.genai.release(agentKey(e.payload.agentId, e.meta.subflowPath));
      },
    },
    'footprint.agent.next_step': { spanEvent: true },
    'footprint.call.llm_start': { before: (s, e) => s.genai.llmStart(e), spanEvent: false },
    // A chunk is for listeners: the call's span learns of the stream from llm_end's `streamed` totals.
    'footprint.call.llm_chunk': { spanEvent: false },
    'footprint.call.llm_end': { before: (s, e) => s.genai.llmEnd(e), spanEvent: false },
    'footprint.call.tool_start': { before: (s, e) => s.genai.toolStart(e), spanEvent: false },
    'footprint.call.tool_end': { before: (s, e) => s.genai.toolEnd(e), spanEvent: false },
    'footprint.composition.enter': { before: (s, e) => s.compositionEnter(e), spanEvent: true },
    'footprint.composition.exit': { spanEvent: true, after: (s, e) => s.compositionExit(e) },
    'footprint.composition.route_decided': { before: (s, e) => s.routeDecided(e), spanEvent: true },
    'footprint.composition.fork': { spanEvent: true },
    'footprint.composition.branch_end': { spanEvent: true, after: (s, e) => s.branchEnd(e) },
    'footprint.composition.iteration': { spanEvent: true },
    'footprint.skill.entered': { spanEvent: true },
    'footprint.skill.rejected': { before: (s, e) => s.skillRejected(e), spanEvent: true },
    'footprint.conversation.compacted': { spanEvent: true },
    'footprint.skill.escalated': { before: (s) => s.rollups.escalated(), spanEvent: true },
    'footprint.skill.hop': {
      before: (s, e) => {
        if (e.payload.cause !== 'stay') s.rollups.step(e.payload.to);
        s.hopProduced(e);
      },
      spanEvent: true,
    },
    'footprint.loop_guard.trip': { before: (s, e) => s.rollups.trip(e.payload.kind), spanEvent: true },
    'footprint.run.paused': { spanEvent: true },
    'footprint.run.resumed': { spanEvent: true },
    'footprint.run.failed': {
      before: (s, e) => {
        s.rollups.failed(e.payload.error.type);
        s.routerAnswerUnusable(e);
      },
      spanEvent: true,
      after: (s, e) => s.layout.failMembers(e.payload.error),
    },
  };

  /** The event as a span event, under its name as the semconv mode spells it (both spellings in the both mode). */
  private addEvent(event: ExportedEvent): void {
    const meta = event.meta;
    const span = emitterSpan(this.layout, meta.runtimeStageId, meta.subflowPath).span;
    const name = spellingIn(this.semconv, event.type);
    const time = spanTime(meta.timestamp);
    span.addEvent(name, eventAttributes(event, name, this.semconv), time);
    const second = secondSpellingIn(this.semconv, event.type);
    if (second !== undefined) span.addEvent(second, eventAttributes(event, second, this.semconv), time);
  }

  /**
   * An agent's turn, or a router's model call (the router's decision: an agent invocation named by
   * the router's id, see memberIdentity.ts), opens the member span that stands for it.
   */
  private turnStart({ payload: p, meta }: ExportedEvent<'footprint.agent.turn_start'>): void {
    const kind = meta.member.kind;
    if (kind !== 'agent' && kind !== 'router') return;
    const profile = { provider: p.provider, model: p.model, temperature: p.temperature, maxTokens: p.maxTokens, conversationId: this.conversationId };
    const identity =
      kind === 'agent'
        ? agentProfileIdentity({ id: p.agentId, name: p.name, ...profile }, this.semconv)
        : routerDecisionIdentity({ id: p.agentId, name: p.agentId, ...profile }, this.semconv);
    const member = this.layout.enterMember(meta.subflowPath, identity, meta.timestamp);
    if (p.message !== undefined) member.span.setAttribute(ATTR_GEN_AI_INPUT_MESSAGES, textMessage('user', p.message));
  }

  /** A hop is the producer of the skill body it put into the prompt: its stage span, or (semantic detail) its agent's span standing in. */
  private hopProduced({ payload: p, meta }: ExportedEvent<'footprint.skill.hop'>): void {
    const stage = this.layout.stage(meta.runtimeStageId);
    const span = stage ?? this.layout.container(meta.subflowPath);
    this.lineage.hop(p.hopId, span.span.spanContext(), stage === undefined);
  }

  private skillRejected({ payload: p, meta }: ExportedEvent<'footprint.skill.rejected'>): void {
    const explanation = `"${p.requested}" is not reachable from "${p.current}" (allowed: ${p.allowed.join(', ') || 'none'})`;
    this.genai.evaluate(agentKey(p.agentId, meta.subflowPath), { name: EVAL_SKILL_JUMP, label: 'refused', explanation }, meta.timestamp);
  }

  /**
   * A router's decision judges its model's answer when it named no agent of the roster: a router
   * step's own decision, or an llmSwarm's (made by the router the decision names).
   */
  private routeDecided({ payload: p, meta }: ExportedEvent<'footprint.composition.route_decided'>): void {
    this.rollups.step(p.chosen);
    if (p.router === undefined) return;
    const router = this.genai.routerCall(p.router, meta.subflowPath);
    if (router === undefined) return;
    if (p.inRoster === false) {
      this.genai.evaluate(router, { name: EVAL_ROUTER_CHOICE, label: 'not_in_roster', explanation: 'the router named an agent outside its roster' }, meta.timestamp);
    }
    this.genai.release(router);
  }

  /** A router whose answer could not be parsed (RoutingDecisionError) fails the run: that answer is judged malformed. */
  private routerAnswerUnusable({ payload: p, meta }: ExportedEvent<'footprint.run.failed'>): void {
    if (p.memberKind !== 'router' || p.error.type !== ROUTING_DECISION_ERROR) return;
    // The error's message is the parser's fixed wording (the model's raw text stays on the error only).
    const explanation = p.error.message.startsWith(`${ROUTING_DECISION_ERROR}: `) ? p.error.message.slice(ROUTING_DECISION_ERROR.length + 2) : p.error.message;
    const router = this.genai.routerCall(p.member, meta.subflowPath);
    if (router === undefined) return;
    this.genai.evaluate(router, { name: EVAL_ROUTER_CHOICE, label: 'malformed', explanation }, meta.timestamp);
    this.genai.release(router);
  }

  private turnEnd({ payload: p, meta }: ExportedEvent<'footprint.agent.turn_end'>): void {
    const kind = meta.member.kind;
    if (kind !== 'agent' && kind !== 'router') return;
    // A router's chat span stays open for the router's decision (routeDecided).
    if (kind === 'agent') this.genai.release(agentKey(p.agentId, meta.subflowPath));
    const member = this.layout.container(meta.subflowPath);
    const finish = turnFinishReason(p.outcome, p.stoppedEarly?.reason);
    member.span.setAttributes({
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: p.tokens.input,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: p.tokens.output,
      [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [finish],
      [ATTR_FOOTPRINT_COST_USD]: p.costUsd,
      [ATTR_FOOTPRINT_LLM_CALLS]: p.llmCalls,
      [ATTR_FOOTPRINT_ITERATIONS]: p.iterations,
      [ATTR_FOOTPRINT_TURN_OUTCOME]: valueSpellingIn(this.semconv, ATTR_FOOTPRINT_TURN_OUTCOME, p.outcome),
    });
    // The turn's totals have a cache count when a call of it reported one (events/modelCalls.ts); the
    // current model keeps cache counts to the chat spans (semantic-conventions-genai #469).
    if (emitsNamesOf(this.semconv, 'v1.41')) {
      if (p.tokens.cacheRead !== undefined) member.span.setAttribute(ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, p.tokens.cacheRead);
      if (p.tokens.cacheWrite !== undefined) member.span.setAttribute(ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS, p.tokens.cacheWrite);
    }
    if (p.answer !== undefined) member.span.setAttribute(ATTR_GEN_AI_OUTPUT_MESSAGES, answerMessage(p.answer, finish));
    this.layout.exitMember(meta.subflowPath, meta.timestamp);
  }

  private compositionEnter({ payload: p, meta }: ExportedEvent<'footprint.composition.enter'>): void {
    this.layout.enterMember(meta.subflowPath, compositionIdentity(p.kind, p.compositionId), meta.timestamp);
  }

  private branchEnd({ payload: p, meta }: ExportedEvent<'footprint.composition.branch_end'>): void {
    if (p.status !== 'error') return;
    const failure = { message: p.error?.message ?? 'failed', type: p.error?.type ?? '_OTHER' };
    this.layout.failMember([...meta.subflowPath, p.branch], failure, meta.timestamp);
  }

  private compositionExit({ payload: p, meta }: ExportedEvent<'footprint.composition.exit'>): void {
    this.layout.container(meta.subflowPath).span.setAttribute(ATTR_FOOTPRINT_COMPOSITION_STATUS, p.status);
    this.layout.exitMember(meta.subflowPath, meta.timestamp);
  }
}
