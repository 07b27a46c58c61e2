/**
 * CallLLM: its first act is the iteration's context work (context.ts's iterationContext: the skill
 * cursor's move, the slots that can change, iteration_start; ToolCalls loops back here, so that work
 * costs no stage execution of its own). It then sends the assembled request to the brain that serves this iteration (escalation > skill
 * > default), then to each of the brain's fallbacks while the one before failed retryably (each
 * attempt its own llm_start / llm_end, the next naming the one it falls back from), bounds its
 * wait (the run's AbortSignal, and the agent's modelCallTimeoutMs: modelCallStop.ts), and reports
 * the call: llm_start, then llm_end, the call's one record (usage, cost, skill, brain, turn), which
 * is also what the turn's totals add up (events/modelCalls.ts). The agent's window (window.ts)
 * bounds the conversation sent. A loop guard's stop or escalation is honoured here, before any more
 * money is spent. In a streamed run (runner.stream()) the reply is streamed (streamedCall.ts) and
 * assembled into the same response; run() keeps the one-piece complete() call. With structured
 * output (structuredOutput.ts) the answer is judged here and an invalid one asked again.
 * Its last act is the turn's next step (nextStep.ts), the branch it returns: CallLLM is the chart's
 * decider, so that choice costs no stage execution (nor, in full detail, a stage span) of its own.
 */
import { addModelCall, emit, ownTextOf, type EventPayloads, type ModelCallRecord } from '../../../events/index.js';
import { costOf, NOT_PRICED } from '../../cost/index.js';
import { currentRun, describeError, errorClass, errorType, newId, OnceEnvScope, type MessageOrigin } from '../../run/index.js';
import {
  isProviderError,
  validateResponse,
  type LLMMessage,
  type LLMRequest,
  type LLMResponse,
  type ToolSpec,
} from '../../providers/index.js';
import { READ_SKILL, READ_SKILL_SCHEMA, type Brain, type SkillTurnState } from '../../skills/index.js';
import type { Turn } from '../state.js';
import type { AgentConfig } from '../config.js';
import { callParts } from '../callParts.js';
import { appendToConversation, conversation, conversationOrigins } from '../conversation.js';
import type { CompiledTool } from '../toolRunner.js';
import { offeredTools } from '../toolTable.js';
import { turnOf } from '../turn.js';
import { answerOf, askAgain, judgeAnswer, StructuredOutputError } from '../structuredOutput.js';
import { applyWindow } from '../window.js';
import { iterationContext } from './context.js';
import { nextStep, type NextBranch } from './nextStep.js';
import { ModelCallStop } from './modelCallStop.js';
import { applyTrip } from './signals.js';
import type { AgentScope, StageScope } from './scope.js';
import { streamReply, type StreamedCall } from './streamedCall.js';
import { answeredCalls } from './tools/answeredCalls.js';

export function callLLMStage(config: AgentConfig) {
  const beginIteration = iterationContext(config);
  const decide = nextStep(config);
  const defaultBrain: Brain = { provider: config.provider, model: config.model, via: 'default', fallbacks: config.fallbacks };
  return async (agentScope: AgentScope): Promise<NextBranch> => {
    const scope = new OnceEnvScope(agentScope);
    const turn = turnOf(scope);
    beginIteration(scope, turn);
    applyTrip(scope, turn, config);
    if (turn.stopped) {
      turn.response = undefined;
      return decide(scope, turn);
    }
    const brain = config.cursor && turn.skill ? config.cursor.brain(turn.skill) : defaultBrain;
    const output = config.output;
    for (let attempt = 1; ; attempt++) {
      const { callId, response: reply } = await callWithFallbacks(scope, turn, config, brain);
      const response = output ? answerOf(reply, output) : reply;
      answered(scope, turn, config, { callId, response });
      if (!output || response.toolCalls.length > 0) return decide(scope, turn);
      const verdict = await judgeAnswer(output, response.content, scope.$getEnv().signal);
      if (verdict.ok) {
        turn.output = verdict.value;
        return decide(scope, turn);
      }
      const retrying = attempt <= output.retries;
      emit(scope, 'footprint.agent.output_invalid', {
        agentId: config.member.id,
        turnId: turn.turnId,
        iteration: turn.iteration,
        callId,
        attempt,
        retrying,
        text: response.content,
        error: { type: 'invalid_output', message: verdict.message, ...(verdict.ownText ? { ownText: true } : {}) },
      });
      if (!retrying) throw new StructuredOutputError(config.member.id, attempt, verdict.message, response.content);
      appendToConversation(scope, turn, { origin: 'instructions', producer: { kind: 'member', id: config.member.id } }, { role: 'user', content: askAgain(verdict.message) });
    }
  };
}

/** The brain, then each of its fallbacks while the one before failed retryably after its own retries. */
async function callWithFallbacks(scope: StageScope, turn: Turn, config: AgentConfig, brain: Brain): Promise<{ callId: string; response: LLMResponse }> {
  let serving: Served = brain;
  let fallbackFrom: FallbackFrom | undefined;
  for (let next = 0; ; next++) {
    const attempt = await callOnce(scope, turn, config, brain, serving, fallbackFrom);
    if (attempt.response) return { callId: attempt.callId, response: attempt.response };
    const fallback = brain.fallbacks[next];
    if (fallback === undefined || !fallsBack(attempt.error, attempt.chunks, scope)) throw attempt.error;
    fallbackFrom = { callId: attempt.callId, provider: serving.provider.name, model: serving.model };
    serving = fallback;
  }
}

type Served = Pick<Brain, 'provider' | 'model'>;
type FallbackFrom = NonNullable<EventPayloads['footprint.call.llm_start']['fallbackFrom']>;

/** One model call's outcome: its response, or its error and how many chunks it handed out first. */
type Attempt = { callId: string; response: LLMResponse; error?: undefined; chunks: number } | { callId: string; response?: undefined; error: unknown; chunks: number };

/**
 * A failure the next provider may answer: retryable (the provider's own retries are used up), the run
 * not cancelled, and nothing of the reply handed out yet (a streamed chunk cannot be taken back).
 */
function fallsBack(error: unknown, chunks: number, scope: StageScope): boolean {
  return isProviderError(error) && error.retryable && chunks === 0 && scope.$getEnv().signal?.aborted !== true;
}

/** One call to `served` (the brain or one of its fallbacks), reported by llm_start and llm_end. */
async function callOnce(scope: StageScope, turn: Turn, config: AgentConfig, brain: Brain, served: Served, fallbackFrom: FallbackFrom | undefined): Promise<Attempt> {
  const run = currentRun(scope);
  const agentId = config.member.id;
  const thread = conversation(scope, turn);
  const windowed = config.window && applyWindow(thread, config.window);
  const request = assembleRequest(turn, config, served.model, windowed ? windowed.messages : thread);
  const compacted = windowed !== undefined && windowed.dropped > 0;
  // The input parts are for llm_start's readers (the trace's lineage, listeners): a run where nothing reads llm_start makes none.
  const parts =
    run === undefined || run.events.hears('footprint.call.llm_start')
      ? callParts(turn, config, { request, origins: conversationOrigins(scope, turn), dropped: windowed ? windowed.dropped : 0 }, run?.fingerprintKey)
      : [];
  const callId = newId('call');
  const iteration = turn.iteration;
  const skill = turn.skill?.current;
  const provider = served.provider;
  const server = provider.server;
  const sink = run?.stream;
  const choice = { via: brain.via, provider: provider.name, model: served.model, skillId: brain.skillId };
  // What llm_start and llm_end both say about the call. Each payload below spreads it (and any
  // optional field) last: on Node 20's V8 a property written after a spread in an object literal
  // is a slow runtime call, microseconds each on a record of twenty fields.
  const call = { callId, agentId, iteration, operation: 'chat' as const, provider: provider.name, model: served.model, brain: choice, skill, ...(server ? { server } : {}) };
  const stop = new ModelCallStop(provider.name, config.modelCallTimeoutMs, scope.$getEnv().signal);
  // A streamed call is made once the run's consumer has room for its parts (runStream.ts): until then
  // no request is sent and the call has not started, so its span, duration and time to first chunk
  // are the model's, not the time a consumer that was behind took to read. Cut off by the run's signal.
  const room = sink?.room();
  if (room) {
    try {
      await stop.wait(() => room);
    } catch (error) {
      stop.dispose();
      throw error;
    }
  }
  emit(scope, 'footprint.call.llm_start', {
    temperature: request.temperature,
    maxTokens: request.maxTokens,
    messageCount: request.messages.length,
    toolCount: request.tools?.length ?? 0,
    systemPrompt: request.systemPrompt,
    systemPromptInHistory: provider.systemPromptInHistory,
    messages: request.messages,
    tools: request.tools,
    stream: sink !== undefined,
    compacted,
    parts,
    ...call,
    ...(request.reasoningEffort === undefined ? {} : { reasoningEffort: request.reasoningEffort }),
    ...(fallbackFrom ? { fallbackFrom } : {}),
    ...(request.responseFormat === undefined ? {} : { responseFormat: request.responseFormat.name }),
  });
  if (compacted) {
    emit(scope, 'footprint.conversation.compacted', {
      agentId,
      turnId: turn.turnId,
      iteration,
      callId,
      maxMessages: config.window!.maxMessages,
      maxTokens: config.window!.maxTokens,
      kept: windowed.messages.length,
      dropped: windowed.dropped,
      estimatedTokens: windowed.estimatedTokens,
    });
  }
  const started = performance.now();
  // A streamed call's totals are filled in as chunks arrive, so a call that fails reports what came.
  const streaming: Pick<StreamedCall, 'sink' | 'totals'> | undefined = sink ? { sink, totals: { chunks: 0, chunkGapsMs: [] } } : undefined;
  let response: LLMResponse;
  try {
    const reply = streaming
      ? await streamReply(scope, { provider, request, stop, callId, agentId, started, ...streaming })
      : await stop.wait(() => provider.complete(request, { signal: stop.signal }), 'no answer');
    response = validateResponse(provider.name, reply);
  } catch (error) {
    // No response: no usage and no stop reason to report (zeros would claim a usage never obtained).
    const failed: ModelCallRecord = {
      turnId: turn.turnId,
      // A call without a response has no usage, hence no known cost.
      cost: NOT_PRICED,
      durationMs: performance.now() - started,
      toolCalls: [],
      content: '',
      error: {
        type: errorType(error),
        name: errorClass(error),
        message: describeError(error),
        status: isProviderError(error) ? error.status : undefined,
        retryable: isProviderError(error) ? error.retryable : undefined,
        ...ownTextOf(error),
      },
      ...call,
      ...(streaming ? { streamed: streaming.totals } : {}),
    };
    emit(scope, 'footprint.call.llm_end', failed);
    turn.totals = addModelCall(turn.totals, failed);
    return { callId, error, chunks: streaming?.totals.chunks ?? 0 };
  } finally {
    stop.dispose();
  }
  const record: ModelCallRecord = {
    turnId: turn.turnId,
    responseModel: response.model,
    responseId: response.id,
    cost: costOf(config.pricing, served.model, response.usage),
    stopReason: response.stopReason,
    durationMs: performance.now() - started,
    toolCalls: response.toolCalls.map((asked) => ({ id: asked.id, name: asked.name })),
    content: response.content,
    ...call,
    ...(response.previousResponseId === undefined ? {} : { previousResponseId: response.previousResponseId }),
    ...(response.usage ? { usage: response.usage } : {}),
    ...(streaming ? { streamed: streaming.totals } : {}),
  };
  emit(scope, 'footprint.call.llm_end', record);
  turn.totals = addModelCall(turn.totals, record);
  return { callId, response, chunks: streaming?.totals.chunks ?? 0 };
}

/** The answer becomes the turn's response and the conversation's next assistant message, produced by the call. */
function answered(scope: StageScope, turn: Turn, config: AgentConfig, { callId, response }: { callId: string; response: LLMResponse }): void {
  turn.response = { content: response.content, toolCalls: response.toolCalls };
  turn.responseCallId = callId;
  const origin: MessageOrigin = { origin: 'model_output', producer: { kind: 'model_call', id: callId } };
  appendToConversation(scope, turn, origin, {
    role: 'assistant',
    content: response.content,
    // the calls that will have a result: past the cap, one stands for the rest (tools/answeredCalls.ts)
    toolCalls: response.toolCalls.length > 0 ? answeredCalls(response.toolCalls, config.toolLimits.maxCallsPerReply) : undefined,
  });
}

/**
 * The request the provider gets: the slots as assembled (system prompt, tool names: context.ts) joined with the
 * conversation and the tools' schemas. The assembly replaces the turn's request rather than
 * changing it, so the provider and the events get a stable snapshot without a copy.
 */
function assembleRequest(turn: Turn, config: AgentConfig, model: string, messages: LLMMessage[]): LLMRequest {
  const assembled = turn.request;
  const offered = offeredTools(config, turn.skill);
  const tools: ToolSpec[] = [];
  for (const name of assembled.tools) {
    const spec = toolSpec(config, turn.skill, offered, name);
    if (spec) tools.push(spec);
  }
  return {
    model,
    systemPrompt: assembled.systemPrompt,
    messages,
    tools: tools.length > 0 ? tools : undefined,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    toolChoice: config.toolChoice,
    reasoningEffort: config.reasoningEffort,
    responseFormat: config.output?.format,
  };
}

/**
 * The tool `name` as the model is given it, from the tools offered now (a name a tool source dropped
 * since the slot was assembled has none); read_skill's description depends on the skill state.
 */
export function toolSpec(config: AgentConfig, skill: SkillTurnState | undefined, offered: ReadonlyMap<string, CompiledTool>, name: string): ToolSpec | undefined {
  if (name === READ_SKILL && config.cursor && skill) {
    return { name, description: config.cursor.readSkillDescription(skill), inputSchema: READ_SKILL_SCHEMA };
  }
  const compiled = offered.get(name);
  return compiled && { name, description: compiled.tool.description, inputSchema: compiled.schema.jsonSchema };
}
