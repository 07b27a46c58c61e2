/**
 * The context half of an iteration: Context (opens the turn on first visit, seeding the slots' first
 * values; announces the iteration, moves the skill cursor) and the three slots it feeds, SystemPrompt,
 * Messages and Tools, which MessageAPI assembles into the request CallLLM sends.
 */
import { emit } from '../../../events/index.js';
import { newId } from '../../run/index.js';
import { READ_SKILL } from '../../skills/cursor.js';
import type { AgentConfig } from '../config.js';
import { appendToConversation } from '../conversation.js';
import { guardMove } from './routeGuard.js';
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
      scope.tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      scope.costUsd = 0;
      scope.llmCalls = 0;
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
    if (firstVisit) seedSlots(scope, config);
    emit(scope, 'footprint.agent.iteration_start', { agentId, iteration, skill: scope.skill?.current });
  };
}

/**
 * The turn's first visit writes the state anyway, so it also writes what the three slots and
 * MessageAPI would assemble from it: on that visit they then find nothing to change and write
 * nothing (each stage that writes costs footprintjs a full copy of the state).
 */
function seedSlots(scope: AgentScope, config: AgentConfig): void {
  const systemPrompt = composeSystemPrompt(scope, config);
  const tools = toolNames(scope, config);
  scope.systemPrompt = systemPrompt;
  scope.toolNames = tools;
  assembleRequest(scope);
}

function composeSystemPrompt(scope: AgentScope, config: AgentConfig): string {
  const skillBody = config.cursor && scope.skill ? config.cursor.body(scope.skill) : '';
  return [config.systemPrompt, skillBody].filter((part) => part !== '').join('\n\n');
}

function toolNames(scope: AgentScope, config: AgentConfig): string[] {
  const names = [...config.ownTools];
  if (config.cursor && scope.skill) {
    for (const tool of config.cursor.tools(scope.skill)) if (!names.includes(tool.name)) names.push(tool.name);
    names.push(READ_SKILL);
  }
  return names;
}

export function systemPromptStage(config: AgentConfig) {
  return (scope: AgentScope) => {
    const prompt = composeSystemPrompt(scope, config);
    if (scope.systemPrompt !== prompt) scope.systemPrompt = prompt;
  };
}

export function messagesStage() {
  return (_scope: AgentScope) => {
    // The message slot: the conversation so far goes out as it is. Context engineering (windowing,
    // memory) plugs in here without touching the rest of the loop; passing it through writes nothing,
    // which keeps the stage free (footprintjs clones the whole state only for stages that write).
  };
}

export function toolsStage(config: AgentConfig) {
  return (scope: AgentScope) => {
    const names = toolNames(scope, config);
    if (!sameList(scope.toolNames, names)) scope.toolNames = names;
  };
}

export function messageApiStage() {
  return assembleRequest;
}

/** MessageAPI's assembly of the slots (an empty system prompt is none), written only when it changed. */
function assembleRequest(scope: AgentScope): void {
  const systemPrompt = scope.systemPrompt === '' ? undefined : scope.systemPrompt;
  const previous = scope.request;
  if (previous && previous.systemPrompt === systemPrompt && sameList(previous.tools, scope.toolNames)) return;
  scope.request = { systemPrompt, tools: [...scope.toolNames] };
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((item, i) => item === b[i]);
}
