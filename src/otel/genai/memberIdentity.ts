/**
 * Names and identifying attributes of the spans that stand for runners: an agent is
 * `invoke_agent {name}`, a composition (or router step) `invoke_workflow {id}`, a standalone LLMCall
 * `llm_call {name}`. Set at span start, since samplers read them there.
 */
import type { Attributes } from '@opentelemetry/api';
import type { RunnerKind } from '../../events/index.js';
import type { MemberIdentity } from '../placement/index.js';
import {
  agentSpanName,
  FP_MEMBER_ID,
  FP_MEMBER_KIND,
  GEN_AI_AGENT_ID,
  GEN_AI_AGENT_NAME,
  GEN_AI_OPERATION_NAME,
  GEN_AI_WORKFLOW_NAME,
  OP_INVOKE_AGENT,
  OP_INVOKE_WORKFLOW,
  workflowSpanName,
} from '../encoding/index.js';

export function agentIdentity(id: string, name: string): MemberIdentity {
  return {
    name: agentSpanName(name),
    attributes: {
      [GEN_AI_OPERATION_NAME]: OP_INVOKE_AGENT,
      [GEN_AI_AGENT_NAME]: name,
      [GEN_AI_AGENT_ID]: id,
      [FP_MEMBER_KIND]: 'agent',
      [FP_MEMBER_ID]: id,
    },
  };
}

export function workflowIdentity(kind: RunnerKind, id: string): MemberIdentity {
  return {
    name: workflowSpanName(id),
    attributes: {
      [GEN_AI_OPERATION_NAME]: OP_INVOKE_WORKFLOW,
      [GEN_AI_WORKFLOW_NAME]: id,
      [FP_MEMBER_KIND]: kind,
      [FP_MEMBER_ID]: id,
    },
  };
}

/** The identity of a top-level runner's run span. */
export function runnerIdentity(kind: RunnerKind, id: string, name: string): MemberIdentity {
  if (kind === 'agent') return agentIdentity(id, name);
  if (kind === 'llm_call') {
    const attributes: Attributes = { [FP_MEMBER_KIND]: kind, [FP_MEMBER_ID]: id };
    return { name: `llm_call ${name}`, attributes };
  }
  return workflowIdentity(kind, id);
}
