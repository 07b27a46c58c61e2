/**
 * The context half of an iteration, one stage: Context opens the turn on its first visit, moves the
 * skill cursor, announces the iteration, and engineers the context slots that have work: the system
 * prompt and the tool list (assembled into the request CallLLM sends; the conversation is the run
 * store's, read by CallLLM as it is). A slot has work on the turn's first visit, for an agent with a
 * skill graph whenever the skill state may have changed, and for an agent with a tool source
 * (toolTable.ts) at every iteration, since the source's list may have changed; an agent with neither
 * has a static prompt and tool list, so its later iterations engineer nothing. The slots used to be
 * stages of their own that ran on every iteration and, after the first, changed nothing: a stage costs
 * footprintjs (and a traced run, a span) even when it writes nothing, so the work that exists runs
 * here instead of three empty stages per iteration.
 */
import { emit, noModelCalls } from '../../../events/index.js';
import type { LLMMessage } from '../../providers/index.js';
import { currentRun, newId, OnceEnvScope, stageInput, originAt, originsOf, type ChartInput, type MessageOrigin } from '../../run/index.js';
import { READ_SKILL } from '../../skills/index.js';
import type { AgentConfig } from '../config.js';
import { appendEach } from '../conversation.js';
import type { Turn } from '../state.js';
import { offeredTools } from '../toolTable.js';
import { openTurn, runStore, turnOf } from '../turn.js';
import { guardMove } from './guardMoves.js';
import type { AgentScope, StageScope } from './scope.js';

export function contextStage(config: AgentConfig) {
  const agentId = config.member.id;
  return (agentScope: AgentScope) => {
    const scope = new OnceEnvScope(agentScope);
    const opened = turnOf(agentScope, scope, 'if-open');
    const firstVisit = opened === undefined;
    const turn = opened ?? openTurnOf(agentScope, scope, config);
    if (firstVisit) {
      emit(scope, 'footprint.agent.turn_start', {
        agentId,
        name: config.name,
        provider: config.provider.name,
        model: config.model,
        turnId: turn.turnId,
        message: turn.userMessage,
        skillGraph: config.cursor !== undefined,
        temperature: config.temperature,
        maxTokens: config.maxTokens,
      });
    }
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
    if (firstVisit || cursor || config.hasToolSources) engineerSlots(turn, config);
    emit(scope, 'footprint.agent.iteration_start', { agentId, iteration, skill: turn.skill?.current });
  };
}

/**
 * The turn's record on its first visit, its conversation opened with what it was given: the run's
 * (or its composition's) conversation when there is one (ChartInput.thread), else the one message;
 * each with its origin (the thread's own, or where the message came from: ChartInput.messageOrigin).
 */
function openTurnOf(agentScope: AgentScope, scope: StageScope, config: AgentConfig): Turn {
  const args = stageInput<Record<keyof ChartInput, unknown>>(scope);
  const message = String(args.message ?? '');
  const store = runStore(scope);
  const runId = currentRun(scope)!.runId;
  const given: readonly LLMMessage[] = typeof args.thread === 'string' ? store.list<LLMMessage>(args.thread) : [];
  const opening: readonly LLMMessage[] = given.length > 0 ? given : [{ role: 'user', content: message }];
  const origins: readonly MessageOrigin[] =
    given.length > 0 ? originsOf(store, args.thread as string, runId) : [originAt(store, args.messageOrigin) ?? { origin: 'run_input', producer: { kind: 'run', id: runId } }];
  const turnId = newId('turn');
  const turn = openTurn(agentScope, scope, {
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
