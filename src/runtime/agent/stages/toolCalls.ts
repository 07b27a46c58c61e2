/**
 * ToolCalls: runs the model's tool calls of this iteration in parallel (tools/toolIteration.ts),
 * then either pauses the run or appends every result to the conversation, checks the escalation
 * threshold, and loops back to Context.
 *
 * Pause: a tool that awaits ctx.pause(question) pauses the run once every other call of the
 * iteration has settled. Finished results are kept in the scope, so on resume the stage re-enters from
 * its top, reuses them, and re-runs only the paused tool, whose ctx.pause now returns the answer.
 */
import { emit, now } from '../../../events/index.js';
import type { LLMMessage } from '../../providers/index.js';
import type { AgentConfig } from '../config.js';
import { appendToConversation } from '../conversation.js';
import type { ToolOutcome } from '../toolRunner.js';
import type { AgentScope } from './scope.js';
import { escalate } from './signals.js';
import type { PauseRequest } from './tools/pauseLatch.js';
import { ToolIteration } from './tools/toolIteration.js';

export function toolCallsStage(config: AgentConfig) {
  return async (scope: AgentScope) => {
    const iteration = new ToolIteration(scope, config);
    const outcomes = await iteration.runAll();
    const pause = iteration.pause.request;
    if (pause) pauseRun(scope, { config, iteration, outcomes, pause });
    finishIteration(scope, { config, iteration, outcomes });
  };
}

interface Settled {
  config: AgentConfig;
  iteration: ToolIteration;
  outcomes: ToolOutcome[];
}

/** Keeps every finished result (the paused tool re-runs on resume), reports the pause and pauses. */
function pauseRun(scope: AgentScope, { config, iteration, outcomes, pause }: Settled & { pause: PauseRequest }): never {
  const done = { ...iteration.done };
  for (const outcome of outcomes) {
    if (outcome.call.id !== pause.call.id) done[outcome.call.id] = { status: outcome.status, text: outcome.text };
  }
  scope.doneTools = done;
  if (iteration.skillState) scope.skill = iteration.skillState;
  scope.pausedAt = now();
  emit(scope, 'footprint.run.paused', {
    question: pause.question,
    toolCallId: pause.call.id,
    toolName: pause.call.name,
    agentId: config.member.id,
  });
  throw pause.signal;
}

/** Appends the results to the conversation, moves the skill state on, escalates past the refusal threshold. */
function finishIteration(scope: AgentScope, { config, iteration, outcomes }: Settled): void {
  appendToConversation(scope, ...outcomes.map((o): LLMMessage => ({ role: 'tool', content: o.text, toolCallId: o.call.id })));
  const last = outcomes[outcomes.length - 1];
  if (last) scope.lastTool = { toolName: last.call.name, result: last.text, status: last.status };
  // Written only when a resumed iteration left them set: every key a stage writes costs footprintjs copies.
  if (Object.keys(iteration.done).length > 0) scope.doneTools = {};
  if (scope.pausedAt !== undefined) scope.pausedAt = undefined;
  const skillState = iteration.skillState;
  if (skillState) {
    scope.skill = skillState;
    const threshold = config.cursor?.brains.escalation?.afterRefusals;
    if (threshold !== undefined && skillState.rejections >= threshold) escalate(scope, config, 'refusals');
  }
  emit(scope, 'footprint.agent.iteration_end', { agentId: config.member.id, iteration: iteration.iteration, toolCallCount: iteration.calls.length });
  scope.iteration = iteration.iteration + 1;
}
