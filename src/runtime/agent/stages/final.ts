/**
 * Final: closes the turn with its outcome, totals and answer; the answer (the stage's return value) is the runner's output, and
 * where it came from (the model call that gave it) is recorded for whoever is handed it (ChartInput.answerTo).
 *
 * A turn the iteration cap stopped while its last reply asked for tools does not run them: each call
 * the conversation keeps (tools/answeredCalls.ts) is answered so, in the agent's own words, since the
 * providers refuse a conversation holding a tool call without its result (a stored thread would
 * otherwise fail every later run on it).
 */
import { emit } from '../../../events/index.js';
import type { LLMMessage } from '../../providers/index.js';
import { handoffFrom, keepOrigin, OnceEnvScope, stageInput, type ChartInput } from '../../run/index.js';
import type { AgentConfig } from '../config.js';
import { appendToConversation } from '../conversation.js';
import type { Turn } from '../state.js';
import { runStore, turnOf } from '../turn.js';
import type { AgentScope, StageScope } from './scope.js';
import { answeredCalls } from './tools/answeredCalls.js';

export function finalStage(config: AgentConfig) {
  const agentId = config.member.id;
  return (agentScope: AgentScope) => {
    const scope = new OnceEnvScope(agentScope);
    const turn = turnOf(scope);
    const { stopped, totals } = turn;
    const content = turn.response?.content ?? '';
    if (stopped?.reason === 'max_iterations') answerUnrun(scope, turn, config);
    const answer =
      stopped && content === ''
        ? `Stopped early (${stopped.reason.replace('_', ' ')}) at iteration ${stopped.iteration}.`
        : content;
    emit(scope, 'footprint.agent.iteration_end', { agentId, iteration: turn.iteration, toolCallCount: 0 });
    emit(scope, 'footprint.agent.turn_end', {
      agentId,
      outcome: stopped ? 'stopped_early' : 'ok',
      iterations: turn.iteration,
      // A copy: an event payload must stay what it was.
      tokens: { ...totals.tokens },
      costUsd: totals.costUsd,
      llmCalls: totals.llmCalls,
      stoppedEarly: stopped && { ...stopped },
      answer,
    });
    const answerTo = stageInput<Record<keyof ChartInput, unknown>>(scope).answerTo;
    if (typeof answerTo === 'string') {
      const from = content !== '' && turn.responseCallId !== undefined ? { kind: 'model_call' as const, id: turn.responseCallId } : { kind: 'member' as const, id: agentId };
      keepOrigin(runStore(scope), answerTo, handoffFrom(from));
    }
    // The answer is the stage's return value: what run() resolves with and what a mount's outputMapper
    // receives. It is not written to the flow state: one write there costs footprintjs a transaction
    // buffer, a commit and five structuredClones, 8-9% of the reference turn (docs/benchmarks.md).
    return answer;
  };
}

/** Answers each tool call of the turn's last reply, which the iteration cap kept from running. */
function answerUnrun(scope: StageScope, turn: Turn, config: AgentConfig): void {
  const content = `Tool call not run: the turn stopped at its iteration cap (maxIterations ${config.maxIterations}).`;
  const calls = answeredCalls(turn.response?.toolCalls ?? [], config.toolLimits.maxCallsPerReply);
  const answers = calls.map((call): LLMMessage => ({ role: 'tool', content, toolCallId: call.id }));
  if (answers.length > 0) appendToConversation(scope, turn, { origin: 'instructions', producer: { kind: 'member', id: config.member.id } }, ...answers);
}
