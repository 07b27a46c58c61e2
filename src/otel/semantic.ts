/**
 * The semantic layer: typed events (from the run's hub, at emit time) to spans and span events, the
 * same in both detail modes. Agents and compositions name the span that stands for them (the layout
 * decides which span that is), model and tool calls get their GenAI spans, and every other event
 * becomes a span event on the emitting stage's span (or its member's), feeding the run's roll-ups.
 */
import type { TypedEvent } from '../events/index.js';
import { eventAttributes } from './eventAttributes.js';
import { GenAiSpans } from './genaiSpans.js';
import { agentIdentity, workflowIdentity } from './identity.js';
import { textMessage } from './content.js';
import type { Layout } from './layout.js';
import type { RunTrace } from './runTrace.js';
import {
  FP_COMPOSITION_KIND,
  FP_COMPOSITION_STATUS,
  FP_COST_USD,
  FP_ITERATIONS,
  FP_LLM_CALLS,
  FP_TURN_OUTCOME,
  GEN_AI_CONVERSATION_ID,
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_USAGE_INPUT_TOKENS,
  GEN_AI_USAGE_OUTPUT_TOKENS,
  providerName,
} from './semconv.js';
import { RunTotals } from './totals.js';

export class SemanticSpans {
  readonly totals: RunTotals;
  private readonly genai: GenAiSpans;

  constructor(
    run: RunTrace,
    private readonly layout: Layout,
    private readonly capture: boolean,
    private readonly conversationId?: string,
  ) {
    this.totals = new RunTotals(run.root.span);
    this.genai = new GenAiSpans(run, layout, this.totals, capture, conversationId);
  }

  onEvent(event: TypedEvent): void {
    switch (event.type) {
      case 'footprint.stream.llm_start':
        return this.genai.llmStart(event as TypedEvent<typeof event.type>);
      case 'footprint.stream.llm_end':
        return this.genai.llmEnd(event as TypedEvent<typeof event.type>);
      case 'footprint.stream.tool_start':
        return this.genai.toolStart(event as TypedEvent<typeof event.type>);
      case 'footprint.stream.tool_end':
        return this.genai.toolEnd(event as TypedEvent<typeof event.type>);
      case 'footprint.cost.tick':
        this.genai.costTick(event as TypedEvent<typeof event.type>);
        return;
      case 'footprint.agent.turn_start':
        this.turnStart(event as TypedEvent<typeof event.type>);
        break;
      case 'footprint.composition.enter':
        this.compositionEnter(event as TypedEvent<typeof event.type>);
        break;
      case 'footprint.route.hop': {
        const hop = (event as TypedEvent<typeof event.type>).payload;
        if (hop.cause !== 'stay') this.totals.step(hop.to);
        break;
      }
      case 'footprint.composition.route_decided':
        this.totals.step((event as TypedEvent<typeof event.type>).payload.chosen);
        break;
      case 'footprint.route.trip':
        this.totals.trip((event as TypedEvent<typeof event.type>).payload.kind);
        break;
      case 'footprint.skill.escalated':
        this.totals.escalated();
        break;
      case 'footprint.run.failed':
        this.totals.failureType = (event as TypedEvent<typeof event.type>).payload.error.type;
        break;
    }
    this.addEvent(event);
    if (event.type === 'footprint.agent.turn_end') this.turnEnd(event as TypedEvent<typeof event.type>);
    else if (event.type === 'footprint.composition.exit') this.compositionExit(event as TypedEvent<typeof event.type>);
    else if (event.type === 'footprint.run.failed') {
      this.layout.failMembers((event as TypedEvent<typeof event.type>).payload.error.message);
    } else if (event.type === 'footprint.composition.branch_end') {
      const { branch, status, error } = (event as TypedEvent<typeof event.type>).payload;
      if (status === 'error') this.layout.failMember([...event.meta.subflowPath, branch], error?.message ?? 'failed', event.meta.timestamp);
    }
  }

  private addEvent(event: TypedEvent): void {
    const meta = event.meta;
    const target = this.layout.stage(meta.runtimeStageId) ?? this.layout.container(meta.subflowPath);
    target.span.addEvent(event.type, eventAttributes(event, this.capture), meta.timestamp);
  }

  private turnStart({ payload: p, meta }: TypedEvent<'footprint.agent.turn_start'>): void {
    if (meta.member.kind !== 'agent') return;
    const identity = agentIdentity(p.agentId, p.name);
    identity.attributes[GEN_AI_PROVIDER_NAME] = providerName(p.provider);
    identity.attributes[GEN_AI_REQUEST_MODEL] = p.model;
    if (this.conversationId !== undefined) identity.attributes[GEN_AI_CONVERSATION_ID] = this.conversationId;
    const member = this.layout.enterMember(meta.subflowPath, identity, meta.timestamp);
    if (this.capture) member.span.setAttribute(GEN_AI_INPUT_MESSAGES, textMessage('user', p.message));
  }

  private turnEnd({ payload: p, meta }: TypedEvent<'footprint.agent.turn_end'>): void {
    if (meta.member.kind !== 'agent') return;
    const member = this.layout.container(meta.subflowPath);
    member.span.setAttributes({
      [GEN_AI_USAGE_INPUT_TOKENS]: p.tokens.input,
      [GEN_AI_USAGE_OUTPUT_TOKENS]: p.tokens.output,
      [FP_COST_USD]: p.costUsd,
      [FP_LLM_CALLS]: p.llmCalls,
      [FP_ITERATIONS]: p.iterations,
      [FP_TURN_OUTCOME]: p.outcome,
    });
    if (this.capture) member.span.setAttribute(GEN_AI_OUTPUT_MESSAGES, textMessage('assistant', p.answer));
    this.layout.exitMember(meta.subflowPath, meta.timestamp);
  }

  private compositionEnter({ payload: p, meta }: TypedEvent<'footprint.composition.enter'>): void {
    const identity = workflowIdentity(p.kind, p.compositionId);
    identity.attributes[FP_COMPOSITION_KIND] = p.kind;
    this.layout.enterMember(meta.subflowPath, identity, meta.timestamp);
  }

  private compositionExit({ payload: p, meta }: TypedEvent<'footprint.composition.exit'>): void {
    this.layout.container(meta.subflowPath).span.setAttribute(FP_COMPOSITION_STATUS, p.status);
    this.layout.exitMember(meta.subflowPath, meta.timestamp);
  }
}
