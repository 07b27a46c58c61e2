/**
 * ToolCalls: runs the model's tool calls of this iteration in parallel, answers read_skill requests
 * from the skill cursor, appends every result to the conversation, and loops back to Context.
 *
 * Pause: a tool that awaits ctx.pause(question) pauses the run once every other call of the
 * iteration has settled. Finished results are kept in the scope, so on resume the stage re-enters from
 * its top, reuses them, and re-runs only the paused tool, whose ctx.pause now returns the answer.
 */
import { interrupt } from 'footprintjs';
import { emit, now } from '../../../events/index.js';
import type { LLMMessage, ToolCall } from '../../providers/index.js';
import { READ_SKILL } from '../../skills/cursor.js';
import type { AgentConfig } from '../config.js';
import { appendToConversation } from '../conversation.js';
import type { AgentState, SavedToolResult } from '../state.js';
import { safeStringify } from '../toolResults.js';
import { runToolCall, type ToolOutcome } from '../toolRunner.js';
import { escalate } from './signals.js';
import type { AgentScope } from './scope.js';

interface PauseRequest {
  signal: unknown;
  question: string;
  call: ToolCall;
}

export function toolCallsStage(config: AgentConfig) {
  const agentId = config.member.id;
  return async (scope: AgentScope) => {
    const calls = (scope.$getValue('response') as AgentState['response'])?.toolCalls ?? [];
    const iteration = scope.iteration;
    const done: Record<string, SavedToolResult> = { ...scope.doneTools };
    const skillState = scope.skill ? { ...scope.skill } : undefined;
    const signal = scope.$getEnv().signal;
    const available = scope.$getValue('toolNames') as string[];
    let pauseRequest: PauseRequest | undefined;

    const execute = async (call: ToolCall): Promise<ToolOutcome & { reused?: boolean }> => {
      const saved = done[call.id];
      if (saved) return { call, status: saved.status, text: saved.text, durationMs: 0, reused: true };
      emit(scope, 'footprint.stream.tool_start', {
        agentId,
        iteration,
        toolCallId: call.id,
        toolName: call.name,
        parallelCount: calls.length,
        args: call.args,
      });
      if (call.name === READ_SKILL && config.cursor && skillState) {
        const verdict = config.cursor.readSkill(skillState, call.args?.id);
        if (!verdict.accepted) {
          emit(scope, 'footprint.skill.rejected', {
            agentId,
            turnId: scope.turnId,
            requested: requestedSkill(call.args?.id),
            current: skillState.current ?? config.cursor.graph.entry,
            allowed: verdict.allowed,
            iteration,
          });
        }
        return verdict.accepted
          ? { call, status: 'ok', text: verdict.text, durationMs: 0 }
          : { call, status: 'error', text: verdict.text, durationMs: 0, error: { type: 'skill_rejected', message: verdict.text } };
      }
      const compiled = available.includes(call.name) ? config.tools.get(call.name) : undefined;
      return runToolCall(call, compiled, available, {
        toolCallId: call.id,
        agentId,
        signal,
        pause: async (question: string) => {
          let answer: unknown;
          try {
            answer = interrupt<unknown>(scope, { reason: question });
          } catch (pauseSignal) {
            pauseRequest ??= { signal: pauseSignal, question, call };
            throw pauseSignal;
          }
          const pausedAt = scope.pausedAt ?? now();
          emit(scope, 'footprint.run.resumed', {
            question,
            pausedAt,
            waitedMs: Math.max(0, now() - pausedAt),
            toolCallId: call.id,
            toolName: call.name,
            agentId,
          });
          return answer;
        },
      });
    };

    const runOne = async (call: ToolCall) => {
      const outcome = await execute(call);
      if (!outcome.reused) reportEnd(scope, agentId, iteration, outcome, pauseRequest?.call.id === call.id);
      return outcome;
    };

    const outcomes = await Promise.all(calls.map(runOne));

    if (pauseRequest) {
      const paused = pauseRequest;
      for (const outcome of outcomes) {
        if (outcome.call.id !== paused.call.id) done[outcome.call.id] = { status: outcome.status, text: outcome.text };
      }
      scope.doneTools = done;
      if (skillState) scope.skill = skillState;
      scope.pausedAt = now();
      emit(scope, 'footprint.run.paused', {
        question: paused.question,
        toolCallId: paused.call.id,
        toolName: paused.call.name,
        agentId,
      });
      throw paused.signal;
    }

    appendToConversation(scope, ...outcomes.map((o): LLMMessage => ({ role: 'tool', content: o.text, toolCallId: o.call.id })));
    const last = outcomes[outcomes.length - 1];
    if (last) scope.lastTool = { toolName: last.call.name, result: last.text, status: last.status };
    scope.doneTools = {};
    scope.pausedAt = undefined;
    if (skillState) {
      scope.skill = skillState;
      const threshold = config.cursor?.brains.escalation?.afterRefusals;
      if (threshold !== undefined && skillState.rejections >= threshold) escalate(scope, config, 'refusals');
    }
    emit(scope, 'footprint.agent.iteration_end', { agentId, iteration, toolCallCount: calls.length });
    scope.iteration = iteration + 1;
  };
}

/** Reports one tool call's end the moment it settles, so its span ends when the tool did. */
function reportEnd(scope: AgentScope, agentId: string, iteration: number, outcome: ToolOutcome, paused: boolean): void {
  emit(scope, 'footprint.stream.tool_end', {
    agentId,
    iteration,
    toolCallId: outcome.call.id,
    toolName: outcome.call.name,
    status: paused ? 'paused' : outcome.status,
    durationMs: outcome.durationMs,
    result: paused ? '' : outcome.text,
    error: paused ? undefined : outcome.error,
  });
}

/** The skill id a read_skill call asked for, as text; the model's arguments can be any JSON. */
function requestedSkill(id: unknown): string {
  if (id === undefined || id === null) return '';
  return typeof id === 'string' ? id : safeStringify(id);
}
