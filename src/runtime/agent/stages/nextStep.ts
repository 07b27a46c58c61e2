/**
 * The agent's next step after each model call: tool calls loop back through ToolCalls; an answer, a
 * loop-guard stop or the iteration cap go to Final. The choice and its rationale are emitted
 * (agent.next_step). CallLLM decides it as its last act (it is the chart's decider: chart.ts), so
 * an iteration costs no stage of its own for a few lines of logic.
 */
import { emit } from '../../../events/index.js';
import type { AgentConfig } from '../config.js';
import type { Turn } from '../state.js';
import type { StageScope } from './scope.js';

export const TOOL_CALLS = 'tool-calls';
export const FINAL = 'final';

export type NextBranch = typeof TOOL_CALLS | typeof FINAL;

export function nextStep(config: AgentConfig): (scope: StageScope, turn: Turn) => NextBranch {
  const agentId = config.member.id;
  return (scope: StageScope, turn: Turn) => {
    const iteration = turn.iteration;
    const wantsTools = (turn.response?.toolCalls.length ?? 0) > 0;
    let chosen: 'tool-calls' | 'final' | 'stopped';
    let rationale: string;
    if (turn.stopped) {
      chosen = 'stopped';
      rationale = `a loop guard stopped the turn at iteration ${turn.stopped.iteration}`;
    } else if (wantsTools && iteration >= config.maxIterations) {
      chosen = 'stopped';
      rationale = `the model asked for tools at iteration ${iteration}, the cap (maxIterations ${config.maxIterations})`;
      turn.stopped = { reason: 'max_iterations', iteration };
      emit(scope, 'footprint.agent.iteration_cap', { agentId, maxIterations: config.maxIterations, iteration });
    } else if (wantsTools) {
      chosen = 'tool-calls';
      rationale = `the model asked for ${turn.response!.toolCalls.length} tool call(s)`;
    } else {
      chosen = 'final';
      rationale = 'the model answered without tool calls';
    }
    emit(scope, 'footprint.agent.next_step', { agentId, iteration, chosen, rationale });
    return chosen === 'tool-calls' ? TOOL_CALLS : FINAL;
  };
}
