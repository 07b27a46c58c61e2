/**
 * The Agent's flowchart, one flat ReAct loop:
 *   Context -> CallLLM -> NextStep
 *     NextStep: tool-calls -> ToolCalls -> (loop to Context) | final -> Final
 * Context engineers the context slots (system prompt, tools) itself, only when they have work
 * (stages/context.ts).
 */
import { flowChart, type FlowChart } from 'footprintjs';
import { quietLogger, stage } from '../run/index.js';
import type { AgentConfig } from './config.js';
import { callLLMStage } from './stages/callLLM.js';
import { contextStage } from './stages/context.js';
import { finalStage } from './stages/final.js';
import { FINAL, nextStepStage, TOOL_CALLS } from './stages/nextStep.js';
import type { AgentScope } from './stages/scope.js';
import { toolCallsStage } from './stages/toolCalls.js';
import type { AgentState } from './state.js';

export function buildAgentChart(config: AgentConfig): FlowChart {
  const m = config.member;
  return flowChart<AgentState>('Context', stage<AgentScope, void>(m, 'context', contextStage(config)), 'context')
    .addFunction('CallLLM', stage(m, 'call-llm', callLLMStage(config)), 'call-llm')
    .addDeciderFunction('NextStep', stage(m, 'next-step', nextStepStage(config)), 'next-step')
    .addFunctionBranch(TOOL_CALLS, 'ToolCalls', stage(m, 'tool-calls', toolCallsStage(config)))
    .loopTo('context')
    .addFunctionBranch(FINAL, 'Final', stage(m, 'final', finalStage(config)))
    .end()
    .setLogger(quietLogger)
    .build();
}
