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
import { newId } from '../../run/index.js';
import { READ_SKILL } from '../../skills/index.js';
import type { AgentConfig } from '../config.js';
import { appendToConversation } from '../conversation.js';
import { offeredTools } from '../toolTable.js';
import { guardMove } from './guardMoves.js';
import type { AgentScope } from './scope.js';

export function contextStage(config: AgentConfig) {
  const agentId = config.member.id;
  return (scope: AgentScope) => {
    const firstVisit = scope.iteration === undefined;
    if (firstVisit) {
      const message = String(scope.$getArgs<{ message?: unknown }>().message ?? '');
      scope.turnId = newId('turn');
      scope.userMessage = message;
      scope.iteration = 1;
      scope.historyKey = `history:${scope.turnId}`;
      appendToConversation(scope, { role: 'user', content: message });
      scope.totals = noModelCalls();
      scope.doneTools = {};
      scope.output = '';
      if (config.cursor) scope.skill = config.cursor.initial();
      emit(scope, 'footprint.agent.turn_start', {
        agentId,
        name: config.name,
        provider: config.provider.name,
        model: config.model,
        turnId: scope.turnId,
        message,
        skillGraph: config.cursor !== undefined,
        temperature: config.temperature,
        maxTokens: config.maxTokens,
      });
    }
    // ToolCalls counts the next iteration as it loops back (a stage that writes anyway), so this
    // stage writes nothing on later visits unless the skill cursor moves.
    const iteration = scope.iteration;
    const cursor = config.cursor;
    if (cursor) {
      const state = { ...scope.skill! };
      const move = cursor.advance(state, scope.lastTool);
      scope.skill = state;
      emit(scope, 'footprint.route.hop', {
        agentId,
        turnId: scope.turnId,
        iteration,
        from: move.from,
        to: move.to,
        cause: move.cause,
        edgeLabel: move.edgeLabel,
      });
      guardMove(scope, config, { hop: move });
      if (move.cause !== 'stay') {
        emit(scope, 'footprint.skill.entered', { agentId, skillId: move.to, from: move.from, iteration });
      }
    }
    if (firstVisit || cursor || config.hasToolSources) engineerSlots(scope, config);
    emit(scope, 'footprint.agent.iteration_start', { agentId, iteration, skill: scope.skill?.current });
  };
}

/** The system prompt and tool slots and the request assembled from them, each written only when it changed. */
function engineerSlots(scope: AgentScope, config: AgentConfig): void {
  const prompt = composeSystemPrompt(scope, config);
  if (scope.systemPrompt !== prompt) scope.systemPrompt = prompt;
  const names = toolNames(scope, config);
  if (!sameList(scope.toolNames, names)) scope.toolNames = names;
  assembleRequest(scope);
}

function composeSystemPrompt(scope: AgentScope, config: AgentConfig): string {
  const skillBody = config.cursor && scope.skill ? config.cursor.body(scope.skill) : '';
  return [config.systemPrompt, skillBody].filter((part) => part !== '').join('\n\n');
}

function toolNames(scope: AgentScope, config: AgentConfig): string[] {
  const names = [...offeredTools(config, scope.skill).keys()];
  if (config.cursor && scope.skill) names.push(READ_SKILL);
  return names;
}

/** The request assembled from the slots (an empty system prompt is none), written only when it changed. */
function assembleRequest(scope: AgentScope): void {
  const systemPrompt = scope.systemPrompt === '' ? undefined : scope.systemPrompt;
  const previous = scope.request;
  if (previous && previous.systemPrompt === systemPrompt && sameList(previous.tools, scope.toolNames)) return;
  scope.request = { systemPrompt, tools: [...scope.toolNames] };
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((item, i) => item === b[i]);
}
