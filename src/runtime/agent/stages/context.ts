/**
 * The context half of an iteration: Context (opens the turn on first visit, counts the iteration,
 * moves the skill cursor) and the three slots it feeds, SystemPrompt, Messages and Tools, which
 * MessageAPI assembles into the request CallLLM sends.
 */
import { emit } from '../../../events/index.js';
import { newId } from '../../run/index.js';
import { READ_SKILL, READ_SKILL_SCHEMA } from '../../skills/cursor.js';
import type { ToolSpec } from '../../providers/index.js';
import type { AgentConfig } from '../config.js';
import type { AgentScope } from './scope.js';

export function contextStage(config: AgentConfig) {
  const agentId = config.member.id;
  return (scope: AgentScope) => {
    if (scope.iteration === undefined) {
      const message = String(scope.$getArgs<{ message?: unknown }>().message ?? '');
      scope.turnId = newId('turn');
      scope.userMessage = message;
      scope.iteration = 0;
      scope.history = [{ role: 'user', content: message }];
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
      });
    }
    const iteration = scope.iteration + 1;
    scope.iteration = iteration;
    scope.doneTools = {};
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
      if (move.cause !== 'stay') {
        emit(scope, 'footprint.skill.entered', { agentId, skillId: move.to, from: move.from, iteration });
      }
    }
    emit(scope, 'footprint.agent.iteration_start', { agentId, iteration, skill: scope.skill?.current });
  };
}

export function systemPromptStage(config: AgentConfig) {
  return (scope: AgentScope) => {
    const skillBody = config.cursor && scope.skill ? config.cursor.body(scope.skill) : '';
    scope.systemPrompt = [config.systemPrompt, skillBody].filter((part) => part !== '').join('\n\n');
  };
}

export function messagesStage() {
  return (scope: AgentScope) => {
    // The conversation so far is the message slot; later context engineering (windowing, memory)
    // plugs in here without touching the rest of the loop.
    scope.request = { model: '', messages: scope.history };
  };
}

export function toolsStage(config: AgentConfig) {
  return (scope: AgentScope) => {
    const names = [...config.ownTools];
    if (config.cursor && scope.skill) {
      for (const tool of config.cursor.tools(scope.skill)) if (!names.includes(tool.name)) names.push(tool.name);
      names.push(READ_SKILL);
    }
    scope.toolNames = names;
  };
}

export function messageApiStage(config: AgentConfig) {
  return (scope: AgentScope) => {
    const tools: ToolSpec[] = [];
    for (const name of scope.toolNames) {
      if (name === READ_SKILL && config.cursor && scope.skill) {
        tools.push({ name, description: config.cursor.readSkillDescription(scope.skill), inputSchema: READ_SKILL_SCHEMA });
        continue;
      }
      const compiled = config.tools.get(name);
      if (compiled) {
        tools.push({ name, description: compiled.tool.description, inputSchema: compiled.tool.inputSchema });
      }
    }
    scope.request = {
      model: config.model,
      systemPrompt: scope.systemPrompt === '' ? undefined : scope.systemPrompt,
      messages: scope.history,
      tools: tools.length > 0 ? tools : undefined,
      temperature: config.temperature,
      maxTokens: config.maxTokens,
    };
  };
}
