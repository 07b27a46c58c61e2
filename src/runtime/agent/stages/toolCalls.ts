/**
 * ToolCalls: runs the model's tool calls of this iteration in parallel (tools/toolIteration.ts),
 * then either pauses the run or appends every result to the conversation, checks the escalation
 * threshold, and loops back to CallLLM (whose first act is the next iteration's context work).
 *
 * Pause: a tool that awaits ctx.pause(question) pauses the run once every other call of the
 * iteration has settled. Finished results are kept in the turn's record, so on resume the stage re-enters from
 * its top, reuses them, and re-runs only the paused tool, whose ctx.pause now returns the answer.
 */
import { emit, now } from '../../../events/index.js';
import type { LLMMessage } from '../../providers/index.js';
import { OnceEnvScope, type MessageOrigin } from '../../run/index.js';
import type { AgentConfig } from '../config.js';
import { appendEach } from '../conversation.js';
import type { ToolOutcome } from '../toolRunner.js';
import type { Turn } from '../state.js';
import { turnOf } from '../turn.js';
import type { AgentScope, StageScope } from './scope.js';
import { escalate } from './signals.js';
import type { PauseRequest } from './tools/pauseLatch.js';
import { ToolIteration } from './tools/toolIteration.js';

export function toolCallsStage(config: AgentConfig) {
  return async (agentScope: AgentScope) => {
    const scope = new OnceEnvScope(agentScope);
    const turn = turnOf(scope);
    const iteration = new ToolIteration(agentScope, scope, turn, config);
    const outcomes = await iteration.runAll();
    // A cancelled run ends here, at the stage its tools were cut short in: no cancelled call's text
    // reaches the conversation, and the next stage does not fail a second time.
    scope.$getEnv().signal?.throwIfAborted();
    const pause = iteration.pause.request;
    if (pause) pauseRun(scope, turn, { config, iteration, outcomes, pause });
    finishIteration(scope, turn, { config, iteration, outcomes });
  };
}

interface Settled {
  config: AgentConfig;
  iteration: ToolIteration;
  outcomes: ToolOutcome[];
}

/** Keeps every finished result (the paused tool re-runs on resume), reports the pause and pauses. */
function pauseRun(scope: StageScope, turn: Turn, { config, iteration, outcomes, pause }: Settled & { pause: PauseRequest }): never {
  const done = { ...iteration.done };
  for (const outcome of outcomes) {
    if (outcome.call.id !== pause.call.id) done[outcome.call.id] = { status: outcome.status, text: outcome.text };
  }
  turn.doneTools = done;
  if (iteration.skillState) turn.skill = iteration.skillState;
  turn.pausedAt = now();
  emit(scope, 'footprint.run.paused', {
    question: pause.question,
    toolCallId: pause.call.id,
    toolName: pause.call.name,
    agentId: config.member.id,
  });
  throw pause.signal;
}

/** Appends the results to the conversation, moves the skill state on, escalates past the refusal threshold. */
function finishIteration(scope: StageScope, turn: Turn, { config, iteration, outcomes }: Settled): void {
  // Each result's producer is its tool call: the model call that asked for it, and the call's id.
  const askedBy = turn.responseCallId ?? '';
  appendEach(
    scope,
    turn,
    outcomes.map((o): LLMMessage => ({ role: 'tool', content: o.text, toolCallId: o.call.id })),
    outcomes.map((o): MessageOrigin => ({ origin: 'tool_result', producer: { kind: 'tool_call', id: `${askedBy}:${o.call.id}` } })),
  );
  const last = outcomes[outcomes.length - 1];
  if (last) turn.lastTool = { toolName: last.call.name, result: last.text, status: last.status };
  if (Object.keys(iteration.done).length > 0) turn.doneTools = {};
  turn.pausedAt = undefined;
  const skillState = iteration.skillState;
  if (skillState) {
    turn.skill = skillState;
    const threshold = config.cursor?.brains.escalation?.afterRefusals;
    if (threshold !== undefined && skillState.rejections >= threshold) escalate(scope, turn, config, 'refusals');
  }
  emit(scope, 'footprint.agent.iteration_end', { agentId: config.member.id, iteration: iteration.iteration, toolCallCount: iteration.calls.length });
  turn.iteration = iteration.iteration + 1;
}
