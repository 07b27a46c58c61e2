/**
 * Final: closes the turn with its outcome, totals and answer; the answer (the stage's return value) is the runner's output, and
 * where it came from (the model call that gave it) is recorded for whoever is handed it (ChartInput.answerTo).
 */
import { emit } from '../../../events/index.js';
import { handoffFrom, keepOrigin, OnceEnvScope, stageInput, type ChartInput } from '../../run/index.js';
import type { AgentConfig } from '../config.js';
import { runStore, turnOf } from '../turn.js';
import type { AgentScope } from './scope.js';

export function finalStage(config: AgentConfig) {
  const agentId = config.member.id;
  return (agentScope: AgentScope) => {
    const scope = new OnceEnvScope(agentScope);
    const turn = turnOf(scope);
    const { stopped, totals } = turn;
    const content = turn.response?.content ?? '';
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
