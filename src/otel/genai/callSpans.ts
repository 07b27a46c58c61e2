/**
 * The GenAI spans of a run, from typed events: each model call is `chat {model}` (kind CLIENT),
 * opened at llm_start with the sampling-relevant attributes and made active for the provider call
 * (so HTTP client spans nest under it), given usage, `footprint.cost.usd`, response attributes and its
 * end time at llm_end, the call's one record (a streamed call: `gen_ai.request.stream` at start, its
 * time to first chunk at llm_end, nothing per chunk; under content capture its output message is
 * the reply llm_end carries, assembled once), then kept open until the agent's next step, so the
 * runtime's checks of that answer land on it (a failed call ends at llm_end). Each tool call is
 * `execute_tool {tool}`, active while the tool runs (a runner the tool calls nests under it),
 * correlated start-to-end by tool call id, and failed when the tool failed, got invalid arguments or
 * does not exist. Both start with their lineage links (lineage.ts).
 */
import { SpanKind, type Attributes, type Link, type SpanContext } from '@opentelemetry/api';
import type { EventPayloads, ExportedEvent, TypedEvent } from '../../events/index.js';
import {
  boundedJson,
  boundString,
  chatSpanName,
  finishReason,
  ATTR_FOOTPRINT_AGENT,
  ATTR_FOOTPRINT_BRAIN,
  ATTR_FOOTPRINT_COST_PRICED,
  ATTR_FOOTPRINT_COST_USD,
  ATTR_FOOTPRINT_ITERATION,
  ATTR_FOOTPRINT_LLM_CALL_ID,
  ATTR_FOOTPRINT_PAUSED,
  ATTR_FOOTPRINT_ROUTE,
  ATTR_FOOTPRINT_SKILL,
  ATTR_FOOTPRINT_TOOL_PARALLEL_COUNT,
  ATTR_FOOTPRINT_TOOL_STATUS,
  EVENT_GEN_AI_EVALUATION_RESULT,
  ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE,
  ATTR_GEN_AI_CONVERSATION_COMPACTED,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_EVALUATION_EXPLANATION,
  ATTR_GEN_AI_EVALUATION_NAME,
  ATTR_GEN_AI_EVALUATION_SCORE_LABEL,
  ATTR_GEN_AI_EVALUATION_SCORE_VALUE,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_OUTPUT_TYPE,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_PREVIOUS_RESPONSE_ID,
  ATTR_GEN_AI_REQUEST_REASONING_LEVEL,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DEFINITIONS,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  inputMessages,
  LINK_RETRY_OF,
  MAX_CONTENT_CHARS,
  MAX_NAME,
  OP_EXECUTE_TOOL,
  outputMessages,
  providerName,
  FAILED_TOOL_STATUSES,
  markFailed,
  recordFailure,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  UNRUN_TOOL_STATUSES,
  systemInstructions,
  toolDefinitions,
  type SemconvMode,
} from '../encoding/index.js';
import { emitterSpan, OpenList, type OpenSpan, type RunSpans, type SpanLayout } from '../placement/index.js';
import { agentKey, type RunLineage } from './lineage.js';
import type { RunRollups } from './runRollups.js';
import { SpanNames } from './spanNames.js';

/** One check the runtime made of a model's answer (score 0: the answer failed it). */
export interface Evaluation {
  name: string;
  label: string;
  explanation: string;
}

interface Call {
  opened: OpenSpan;
  /** The span that was active before this call, made active again when it returns. */
  parent: OpenSpan;
}


/** gen_ai.evaluation.name of the runtime's checks (documented in src/otel/README.md). */
export const EVAL_TOOL_ARGUMENTS = 'footprint.tool_arguments';
export const EVAL_SKILL_JUMP = 'footprint.skill_jump';
export const EVAL_ROUTER_CHOICE = 'footprint.router_choice';

export interface CallSpansInit {
  run: RunSpans;
  layout: SpanLayout;
  rollups: RunRollups;
  /** The run's producer spans: the links of chat and execute_tool spans (lineage.ts). */
  lineage: RunLineage;
  /** The run's session id, as gen_ai.conversation.id. */
  conversationId?: string;
  /** Which conventions' names the spans follow (a skill load's tool span: skillToolSpan.ts). */
  semconv: SemconvMode;
}

export class CallSpans {
  /** Calls between their start and end events (OpenList: no table re-allocated per call). */
  private readonly chats = new OpenList<string, Call>();
  private readonly tools = new OpenList<string, Call>();
  /**
   * The latest chat span of each agent (by agentKey(): its id where it is mounted), kept open after its end time is decided until
   * the agent's next step, so the runtime's checks of that answer (a refused skill jump, tool
   * arguments that fail their schema, a router answer outside the roster) land on it.
   */
  private readonly judged = new OpenList<string, { opened: OpenSpan; agentId: string; path: readonly string[] }>();
  /**
   * The failed chat span of each agent's latest call (by agentKey()), until its next call starts: a
   * fallback's chat span links to it (RETRY_OF), given at span start as samplers want links.
   */
  private readonly failedCall = new Map<string, { callId: string; context: SpanContext }>();
  /** Tools offered per agent span, by name (only when the views hold them: content capture). */
  private readonly offered = new WeakMap<OpenSpan, Map<string, { name: string; description: string; inputSchema: Record<string, unknown> }>>();
  private readonly run: RunSpans;
  private readonly layout: SpanLayout;
  private readonly rollups: RunRollups;
  private readonly lineage: RunLineage;
  private readonly conversationId?: string;

  /** `names`: what the run's semconv mode calls its tool spans and usage counts (spanNames.ts). */
  constructor(
    init: CallSpansInit,
    private readonly names = new SpanNames(init.semconv),
  ) {
    this.run = init.run;
    this.layout = init.layout;
    this.rollups = init.rollups;
    this.lineage = init.lineage;
    this.conversationId = init.conversationId;
  }

  /** Model and tool calls arrive as their exported views (events/exportedView.ts): content is there only when it may be exported. */
  llmStart({ payload: p, meta }: ExportedEvent<'footprint.call.llm_start'>): void {
    const agent = agentKey(p.agentId, meta.subflowPath);
    this.release(agent);
    const attributes: Attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: p.operation,
      [ATTR_GEN_AI_PROVIDER_NAME]: providerName(p.provider),
      [ATTR_GEN_AI_REQUEST_MODEL]: boundString(p.model),
      [ATTR_FOOTPRINT_AGENT]: p.agentId,
      [ATTR_FOOTPRINT_LLM_CALL_ID]: p.callId,
      [ATTR_FOOTPRINT_ITERATION]: p.iteration,
      [ATTR_FOOTPRINT_BRAIN]: p.brain.via,
    };
    if (p.server) {
      attributes[ATTR_SERVER_ADDRESS] = boundString(p.server.address);
      attributes[ATTR_SERVER_PORT] = p.server.port;
    }
    if (p.temperature !== undefined) attributes[ATTR_GEN_AI_REQUEST_TEMPERATURE] = p.temperature;
    if (p.maxTokens !== undefined) attributes[ATTR_GEN_AI_REQUEST_MAX_TOKENS] = p.maxTokens;
    if (p.reasoningEffort !== undefined) attributes[ATTR_GEN_AI_REQUEST_REASONING_LEVEL] = p.reasoningEffort;
    // Structured output is JSON whatever the schema (the conventions' `json`).
    if (p.responseFormat !== undefined) attributes[ATTR_GEN_AI_OUTPUT_TYPE] = 'json';
    // The conventions set it if and only if the request streams: unset reads as not streamed.
    if (p.stream) attributes[ATTR_GEN_AI_REQUEST_STREAM] = true;
    if (p.skill) attributes[ATTR_FOOTPRINT_SKILL] = p.skill;
    if (meta.route !== '') attributes[ATTR_FOOTPRINT_ROUTE] = meta.route;
    if (this.conversationId !== undefined) attributes[ATTR_GEN_AI_CONVERSATION_ID] = this.conversationId;
    if (p.compacted) attributes[ATTR_GEN_AI_CONVERSATION_COMPACTED] = true;
    if (p.messages !== undefined) {
      // Instructions sent inside the history are its first message (OpenAI's wire format); apart from it, system instructions.
      if (p.systemPrompt && p.systemPromptInHistory) {
        attributes[ATTR_GEN_AI_INPUT_MESSAGES] = inputMessages([{ role: 'system', content: p.systemPrompt }, ...p.messages]);
      } else {
        if (p.systemPrompt) attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS] = systemInstructions(p.systemPrompt);
        attributes[ATTR_GEN_AI_INPUT_MESSAGES] = inputMessages(p.messages);
      }
    }
    if (p.tools?.length) {
      attributes[ATTR_GEN_AI_TOOL_DEFINITIONS] = toolDefinitions(p.tools);
      if (meta.member.kind === 'agent') this.offerToAgent(meta, p.tools);
    }
    // The stage span that emitted the event (full detail), else its member's span.
    const parent = emitterSpan(this.layout, meta.runtimeStageId, meta.subflowPath);
    // Given at span start, as samplers want links: the producers of its input, then the attempt it retries.
    const links = this.lineage.chat(p.parts, attributes, parent.span.spanContext());
    const retry = this.retryLink(agent, p.fallbackFrom?.callId);
    if (retry) links.push(retry);
    const opened = this.run.start(chatSpanName(boundString(p.model, MAX_NAME)), parent, { kind: SpanKind.CLIENT, attributes, startTime: meta.timestamp, links });
    this.lineage.chatStarted(p.callId, agent, opened.span);
    this.chats.set(p.callId, { opened, parent });
    this.run.activate(opened);
  }

  llmEnd({ payload: p, meta }: ExportedEvent<'footprint.call.llm_end'>): void {
    this.rollups.llmCall(p);
    const call = this.chats.get(p.callId);
    if (!call) return;
    const span = call.opened.span;
    if (p.usage) span.setAttributes(this.names.usage(p.usage));
    if (p.stopReason !== undefined) {
      span.setAttribute(ATTR_GEN_AI_RESPONSE_FINISH_REASONS, [boundString(finishReason(p.stopReason))]);
      if (p.content !== undefined) span.setAttribute(ATTR_GEN_AI_OUTPUT_MESSAGES, outputMessages(p.content, p.toolCalls, p.stopReason));
    }
    if (p.responseModel) span.setAttribute(ATTR_GEN_AI_RESPONSE_MODEL, boundString(p.responseModel));
    if (p.responseId) span.setAttribute(ATTR_GEN_AI_RESPONSE_ID, boundString(p.responseId));
    // Known only once the provider chose to continue a stored response, so set at the end, not the start.
    if (p.previousResponseId) span.setAttribute(ATTR_GEN_AI_REQUEST_PREVIOUS_RESPONSE_ID, boundString(p.previousResponseId));
    // A streamed call's chunks never touch the span: its first chunk's time comes with the end.
    if (p.streamed?.firstChunkMs !== undefined) span.setAttribute(ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK, p.streamed.firstChunkMs / 1000);
    this.run.activate(call.parent);
    this.chats.delete(p.callId);
    if (p.error) {
      // The one exception event of this failure: typed by the error's class, error.type its kind (e.g. 429).
      recordFailure(span, { name: p.error.name, message: p.error.message }, meta.timestamp, p.error.type);
      this.failedCall.set(agentKey(p.agentId, meta.subflowPath), { callId: p.callId, context: span.spanContext() });
      this.rollups.failureRecorded();
      this.run.end(call.opened, meta.timestamp);
      return;
    }
    span.setAttributes({ [ATTR_FOOTPRINT_COST_USD]: p.cost.usd, [ATTR_FOOTPRINT_COST_PRICED]: p.cost.priced });
    const agent = agentKey(p.agentId, meta.subflowPath);
    this.lineage.answered(agent, p.callId, p.toolCalls);
    // Its end time is decided; it stays open for evaluations until the agent's next step.
    this.run.setEndTime(call.opened, meta.timestamp);
    this.release(agent);
    this.judged.set(agent, { opened: call.opened, agentId: p.agentId, path: meta.subflowPath });
  }

  /** The runtime judged the latest answer of `agent` (an agentKey()): a gen_ai.evaluation.result event on its chat span. */
  evaluate(agent: string, result: Evaluation, time: number): void {
    const chat = this.judged.get(agent)?.opened;
    if (!chat) return;
    const attributes: Attributes = {
      [ATTR_GEN_AI_EVALUATION_NAME]: result.name,
      [ATTR_GEN_AI_EVALUATION_SCORE_VALUE]: 0,
      [ATTR_GEN_AI_EVALUATION_SCORE_LABEL]: result.label,
      [ATTR_GEN_AI_EVALUATION_EXPLANATION]: boundString(result.explanation),
    };
    chat.span.addEvent(EVENT_GEN_AI_EVALUATION_RESULT, attributes, time);
  }

  /** The agent (an agentKey()) moved on (its next call, the end of its iteration or turn): its last chat span ends, at its decided time. */
  release(agent: string): void {
    const chat = this.judged.get(agent)?.opened;
    if (!chat) return;
    this.judged.delete(agent);
    this.run.end(chat);
  }

  /**
   * The agentKey() of a router's latest judged call: a router's decision (or its failure) is emitted by
   * the composition around it, at `path`, above the mount of the router's own model call, so the
   * newest judged call of `routerId` mounted under `path` is its.
   */
  routerCall(routerId: string, path: readonly string[]): string | undefined {
    let found: string | undefined;
    for (const [key, judged] of this.judged.entries()) {
      if (judged.agentId === routerId && path.every((name, i) => judged.path[i] === name)) found = key;
    }
    return found;
  }

  toolStart({ payload: p, meta }: ExportedEvent<'footprint.call.tool_start'>): void {
    const attributes: Attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: OP_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: boundString(p.toolName),
      [ATTR_GEN_AI_TOOL_CALL_ID]: boundString(p.toolCallId),
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      [ATTR_FOOTPRINT_AGENT]: p.agentId,
      [ATTR_FOOTPRINT_ITERATION]: p.iteration,
      [ATTR_FOOTPRINT_TOOL_PARALLEL_COUNT]: p.parallelCount,
    };
    if (p.description !== undefined) attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] = boundString(p.description);
    if ('args' in p) attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = boundedJson(p.args);
    // The stage span that emitted the event (full detail), else its member's span.
    const parent = emitterSpan(this.layout, meta.runtimeStageId, meta.subflowPath);
    const caused = this.lineage.tool(agentKey(p.agentId, meta.subflowPath), p.toolCallId);
    const opened = this.run.start(this.names.tool(p, attributes), parent, { kind: SpanKind.INTERNAL, attributes, startTime: meta.timestamp, links: caused?.links });
    if (caused) this.lineage.toolStarted(caused.producer, opened.span.spanContext());
    this.tools.set(toolKey(meta.runtimeStageId, p.toolCallId), { opened, parent });
    this.run.activate(opened);
  }

  toolEnd({ payload: p, meta }: ExportedEvent<'footprint.call.tool_end'>): void {
    const key = toolKey(meta.runtimeStageId, p.toolCallId);
    const call = this.tools.get(key);
    if (!call) return;
    this.tools.delete(key);
    const span = call.opened.span;
    span.setAttribute(ATTR_FOOTPRINT_TOOL_STATUS, p.status);
    if (p.status === 'paused') span.setAttribute(ATTR_FOOTPRINT_PAUSED, true);
    // A failed call has no result (its error is on the span); a paused one has none yet.
    if (p.result !== undefined && p.status === 'ok') span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, boundString(p.result, MAX_CONTENT_CHARS));
    if (p.status === 'invalid_args') {
      const explanation = p.error?.message ?? `the arguments for "${p.toolName}" do not match its input schema`;
      this.evaluate(agentKey(p.agentId, meta.subflowPath), { name: EVAL_TOOL_ARGUMENTS, label: 'invalid', explanation }, meta.timestamp);
    }
    if (FAILED_TOOL_STATUSES.has(p.status)) {
      const type = p.error?.type ?? '_OTHER';
      recordFailure(span, { name: type, message: p.error?.message ?? p.status }, meta.timestamp, type);
    }
    if (UNRUN_TOOL_STATUSES.has(p.status)) markFailed(span, { type: p.error?.type ?? p.status, message: p.error?.message ?? p.status });
    this.run.end(call.opened, meta.timestamp);
    this.run.activate(call.parent);
  }

  /** The link to the failed call this one falls back from (none for a first attempt); forgets the agent's failed call either way. */
  private retryLink(agent: string, fallbackFrom: string | undefined): Link | undefined {
    const failed = this.failedCall.get(agent);
    this.failedCall.delete(agent);
    if (fallbackFrom === undefined || failed?.callId !== fallbackFrom) return undefined;
    return { context: failed.context, attributes: { [ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE]: LINK_RETRY_OF } };
  }

  /** The agent span lists every tool its turn offered the model so far (skills change the set). */
  private offerToAgent(meta: TypedEvent['meta'], tools: NonNullable<EventPayloads['footprint.call.llm_start']['tools']>): void {
    const agent = this.layout.container(meta.subflowPath);
    const offered = this.offered.get(agent) ?? new Map<string, (typeof tools)[number]>();
    this.offered.set(agent, offered);
    for (const tool of tools) if (!offered.has(tool.name)) offered.set(tool.name, tool);
    agent.span.setAttribute(ATTR_GEN_AI_TOOL_DEFINITIONS, toolDefinitions([...offered.values()]));
  }
}

/** Tool call ids are only unique within a model response, so they are keyed by the emitting stage. */
function toolKey(runtimeStageId: string, toolCallId: string): string {
  return `${runtimeStageId}\u0000${toolCallId}`;
}
