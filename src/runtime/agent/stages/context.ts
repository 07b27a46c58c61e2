/**
 * The agent's context engineering, in two parts. Context, the chart's first stage, opens the turn
 * (its record, its conversation, turn_start) and seeds the context slots: the system prompt and the
 * tool list, assembled into the request CallLLM sends (the conversation is the run store's, read by
 * CallLLM as it is). Each iteration's context work, the turn's first included, is `iterationContext`,
 * which CallLLM runs as its first act: it moves the skill cursor, re-engineers the slots that can
 * change, and announces the iteration. The slots can change for an agent with a skill graph (the
 * skill state moves) or a tool source (toolTable.ts; the source's list may change): theirs are
 * engineered at every iteration and never by Context; an agent with neither has a static prompt and
 * tool list, engineered once, by Context. ToolCalls loops back to CallLLM: an iteration's context work
 * is a few lines for most agents, and as a stage of its own it cost footprintjs's machinery (and, in
 * full detail, a span) at every iteration. The slots were stages of their own once, for the same
 * reason folded into one Context stage, and now into the call stage.
 */
import { emit, noModelCalls } from '../../../events/index.js';
import type { LLMMessage } from '../../providers/index.js';
import { currentRun, newId, OnceEnvScope, stageInput, originAt, originsOf, type ChartInput, type MessageOrigin } from '../../run/index.js';
import { READ_SKILL } from '../../skills/index.js';
import type { AgentConfig } from '../config.js';
import { appendEach } from '../conversation.js';
import type { Turn } from '../state.js';
import { offeredTools } from '../toolTable.js';
import { openTurn, runStore } from '../turn.js';
import { guardMove } from './guardMoves.js';
import type { AgentScope, StageScope } from './scope.js';

export function contextStage(config: AgentConfig) {
  const slotsChange = slotsCanChange(config);
  return (agentScope: AgentScope) => {
    const scope = new OnceEnvScope(agentScope);
    const turn = openTurnOf(scope, config);
    emit(scope, 'footprint.agent.turn_start', {
      agentId: config.member.id,
      name: config.name,
      provider: config.provider.name,
      model: config.model,
      turnId: turn.turnId,
      message: turn.userMessage,
      skillGraph: config.cursor !== undefined,
      temperature: config.temperature,
      maxTokens: config.maxTokens,
    });
    if (!slotsChange) engineerSlots(turn, config);
  };
}

/** An iteration's context work (the cursor's move, the slots that can change, iteration_start): CallLLM's first act. */
export function iterationContext(config: AgentConfig): (scope: StageScope, turn: Turn) => void {
  const agentId = config.member.id;
  const slotsChange = slotsCanChange(config);
  return (scope: StageScope, turn: Turn) => {
    // ToolCalls counts the next iteration as it loops back.
    const iteration = turn.iteration;
    const cursor = config.cursor;
    if (cursor) {
      const state = { ...turn.skill! };
      const move = cursor.advance(state, turn.lastTool);
      turn.skill = state;
      const hopId = newId('hop');
      // The hop that put the current skill into the prompt (a stay keeps the one before).
      if (move.cause !== 'stay' || turn.skillHop === undefined) turn.skillHop = hopId;
      emit(scope, 'footprint.skill.hop', {
        hopId,
        agentId,
        turnId: turn.turnId,
        iteration,
        from: move.from,
        to: move.to,
        cause: move.cause,
        edgeLabel: move.edgeLabel,
      });
      guardMove(scope, turn, config, { hop: move });
      if (move.cause !== 'stay') {
        emit(scope, 'footprint.skill.entered', { agentId, skillId: move.to, from: move.from, iteration });
      }
    }
    if (slotsChange) engineerSlots(turn, config);
    emit(scope, 'footprint.agent.iteration_start', { agentId, iteration, skill: turn.skill?.current });
  };
}

/** Whether the agent's slots can change between iterations: a skill graph moves, a tool source's list may change. */
function slotsCanChange(config: AgentConfig): boolean {
  return config.cursor !== undefined || config.hasToolSources;
}

/**
 * The turn's record on its first visit, its conversation opened with what it was given: the run's
 * (or its composition's) conversation when there is one (ChartInput.thread), else the one message;
 * each with its origin (the thread's own, or where the message came from: ChartInput.messageOrigin).
 */
function openTurnOf(scope: StageScope, config: AgentConfig): Turn {
  const args = stageInput<Record<keyof ChartInput, unknown>>(scope);
  const message = String(args.message ?? '');
  const store = runStore(scope);
  const runId = currentRun(scope)!.runId;
  const given: readonly LLMMessage[] = typeof args.thread === 'string' ? store.list<LLMMessage>(args.thread) : [];
  const opening: readonly LLMMessage[] = given.length > 0 ? given : [{ role: 'user', content: message }];
  const origins: readonly MessageOrigin[] =
    given.length > 0 ? originsOf(store, args.thread as string, runId) : [originAt(store, args.messageOrigin) ?? { origin: 'run_input', producer: { kind: 'run', id: runId } }];
  const turnId = newId('turn');
  const turn = openTurn(scope, {
    turnId,
    userMessage: message,
    iteration: 1,
    historyKey: `history:${turnId}`,
    openedWith: opening.length,
    request: { tools: [] },
    doneTools: {},
    totals: noModelCalls(),
    ...(config.cursor ? { skill: config.cursor.initial() } : {}),
  });
  appendEach(scope, turn, opening, origins);
  return turn;
}

/**
 * The system prompt and tool slots, assembled into the request CallLLM sends (an empty system prompt
 * is none). The request is replaced as a whole (its type is read-only).
 */
function engineerSlots(turn: Turn, config: AgentConfig): void {
  const prompt = composeSystemPrompt(turn, config);
  turn.request = { systemPrompt: prompt === '' ? undefined : prompt, tools: toolNames(turn, config) };
}

function composeSystemPrompt(turn: Turn, config: AgentConfig): string {
  const skillBody = config.cursor && turn.skill ? config.cursor.body(turn.skill) : '';
  return [config.systemPrompt, skillBody].filter((part) => part !== '').join('\n\n');
}

function toolNames(turn: Turn, config: AgentConfig): string[] {
  const names = [...offeredTools(config, turn.skill).keys()];
  if (config.cursor && turn.skill) names.push(READ_SKILL);
  return names;
}
