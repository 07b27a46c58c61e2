/**
 * The Agent's flowchart, one flat ReAct loop:
 *   Context -> CallLLM
 *     CallLLM (the decider: the iteration's context work, the model call, then the next step,
 *     stages/context.ts's iterationContext and stages/nextStep.ts):
 *       tool-calls -> ToolCalls -> (loop to CallLLM) | final -> Final
 * Context opens the turn once and seeds the context slots; each iteration's context work runs at the
 * start of CallLLM (stages/context.ts). Every stage execution costs footprintjs's machinery (and, in
 * full detail, a span), so a few lines of logic ride in the stage around them rather than in a stage
 * of their own.
 */
import { flowChart, type FlowChart } from 'footprintjs';
import { quietLogger, stage, runtimeChart } from '../run/index.js';
import type { AgentConfig } from './config.js';
import { callLLMStage } from './stages/callLLM.js';
import { contextStage } from './stages/context.js';
import { finalStage } from './stages/final.js';
import { FINAL, TOOL_CALLS } from './stages/nextStep.js';
import type { AgentScope } from './stages/scope.js';
import { toolCallsStage } from './stages/toolCalls.js';
import type { AgentState } from './state.js';

export function buildAgentChart(config: AgentConfig): FlowChart {
  const m = config.member;
  return runtimeChart(flowChart<AgentState>('Context', stage<AgentScope, void>(m, 'context', contextStage(config)), 'context')
    .addDeciderFunction('CallLLM', stage(m, 'call-llm', callLLMStage(config)), 'call-llm')
    .addFunctionBranch(TOOL_CALLS, 'ToolCalls', stage(m, 'tool-calls', toolCallsStage(config)))
    .loopTo('call-llm')
    .addFunctionBranch(FINAL, 'Final', stage(m, 'final', finalStage(config)))
    .end()
    .setLogger(quietLogger)
    .build());
}
