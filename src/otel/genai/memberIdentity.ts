/**
 * Names and identifying attributes of the spans that stand for runners: an agent is
 * `invoke_agent {name}`, a composition (or router step) `invoke_workflow {id}`, a standalone LLMCall
 * `llm_call {name}`. Set at span start, since samplers read them there. The conventions' current
 * model records no `gen_ai.agent.id` on an in-process agent span (semantic-conventions-genai #242: an
 * agent id is a hosted agent's stable id), so only the v1.41 names carry it; `footprint.member.id`
 * keeps the id in every mode.
 */
import type { Attributes } from '@opentelemetry/api';
import type { RunnerKind } from '../../events/index.js';
import type { MemberIdentity } from '../placement/index.js';
import {
  agentSpanName,
  boundString,
  ATTR_FOOTPRINT_COMPOSITION_KIND,
  ATTR_FOOTPRINT_MEMBER_ID,
  ATTR_FOOTPRINT_MEMBER_KIND,
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_WORKFLOW_NAME,
  emitsNamesOf,
  OP_INVOKE_AGENT,
  OP_INVOKE_WORKFLOW,
  providerName,
  workflowSpanName,
  type SemconvMode,
} from '../encoding/index.js';

function agentIdentity(id: string, name: string, semconv: SemconvMode): MemberIdentity {
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: OP_INVOKE_AGENT,
    [ATTR_GEN_AI_AGENT_NAME]: name,
    [ATTR_FOOTPRINT_MEMBER_KIND]: 'agent',
    [ATTR_FOOTPRINT_MEMBER_ID]: id,
  };
  if (emitsNamesOf(semconv, 'v1.41')) attributes[ATTR_GEN_AI_AGENT_ID] = id;
  return { name: agentSpanName(name), attributes };
}

/** What an agent span carries from its start: who, and the model settings every call of the turn uses. */
export interface AgentProfile {
  id: string;
  name: string;
  provider?: string;
  model?: string;
  temperature?: number;
  maxTokens?: number;
  conversationId?: string;
}

export function agentProfileIdentity(agent: AgentProfile, semconv: SemconvMode): MemberIdentity {
  const identity = agentIdentity(agent.id, agent.name, semconv);
  const attributes = identity.attributes;
  // The current model names no provider on an in-process agent span (semantic-conventions-genai #289): its chat spans carry it.
  if (agent.provider !== undefined && emitsNamesOf(semconv, 'v1.41')) attributes[ATTR_GEN_AI_PROVIDER_NAME] = providerName(agent.provider);
  if (agent.model !== undefined) attributes[ATTR_GEN_AI_REQUEST_MODEL] = boundString(agent.model);
  if (agent.temperature !== undefined) attributes[ATTR_GEN_AI_REQUEST_TEMPERATURE] = agent.temperature;
  if (agent.maxTokens !== undefined) attributes[ATTR_GEN_AI_REQUEST_MAX_TOKENS] = agent.maxTokens;
  if (agent.conversationId !== undefined) attributes[ATTR_GEN_AI_CONVERSATION_ID] = agent.conversationId;
  return identity;
}

/**
 * A router's model call: the router's decision is an agent invocation (an LLM choosing among
 * agents), so it is `invoke_agent {router id}` with the router's model, member kind 'router'; the
 * router step around it (Ask, the call, Decide) stays `invoke_workflow {router id}` when it is a run.
 */
export function routerDecisionIdentity(router: AgentProfile, semconv: SemconvMode): MemberIdentity {
  const identity = agentProfileIdentity(router, semconv);
  identity.attributes[ATTR_FOOTPRINT_MEMBER_KIND] = 'router';
  return identity;
}

/** A composition's span identity, with its kind (what composition.enter names it with). */
export function compositionIdentity(kind: RunnerKind, id: string): MemberIdentity {
  const identity = workflowIdentity(kind, id);
  identity.attributes[ATTR_FOOTPRINT_COMPOSITION_KIND] = kind;
  return identity;
}

function workflowIdentity(kind: RunnerKind, id: string): MemberIdentity {
  return {
    name: workflowSpanName(id),
    attributes: {
      [ATTR_GEN_AI_OPERATION_NAME]: OP_INVOKE_WORKFLOW,
      [ATTR_GEN_AI_WORKFLOW_NAME]: id,
      [ATTR_FOOTPRINT_MEMBER_KIND]: kind,
      [ATTR_FOOTPRINT_MEMBER_ID]: id,
    },
  };
}

/** The identity of a top-level runner's run span (an agent's with its model settings, known at start). */
export function runnerIdentity(kind: RunnerKind, id: string, name: string, semconv: SemconvMode, profile: Omit<AgentProfile, 'id' | 'name'> = {}): MemberIdentity {
  if (kind === 'agent') return agentProfileIdentity({ id, name, ...profile }, semconv);
  if (kind === 'llm_call') {
    const attributes: Attributes = { [ATTR_FOOTPRINT_MEMBER_KIND]: kind, [ATTR_FOOTPRINT_MEMBER_ID]: id };
    return { name: `llm_call ${name}`, attributes };
  }
  return workflowIdentity(kind, id);
}
