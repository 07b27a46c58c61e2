/**
 * The demo's support desk (src/cli/desk), run through the public API on its scripted, seeded models:
 * one ticket of each scenario (billing, tech, ping-pong, rejected skill jump, failing tool), each as
 * its own run with a session id, plus the data facts those runs have.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { buildDesk } from '../../../src/cli/desk/desk.js';
import { MemoryConversationStore } from '../../../src/index.js';
import { deskModels } from '../../../src/cli/desk/providers.js';
import { generateTickets, type Scenario } from '../../../src/cli/desk/tickets.js';
import { agentAttributes, chatAttributes, pointAttributes, toolAttributes, workflowAttributes } from './facts.js';

export const DESK_SEED = 7;
export const DESK_SCENARIOS: readonly Scenario[] = ['billing', 'tech', 'ping_pong', 'rejected', 'tool_failure'];

/** Runs one ticket of each scenario; returns the answers in scenario order. */
export async function runDesk(scenarios: readonly Scenario[] = DESK_SCENARIOS): Promise<string[]> {
  const tickets = generateTickets(60, DESK_SEED);
  const answers: string[] = [];
  for (const scenario of scenarios) {
    const ticket = tickets.find((t) => t.scenario === scenario);
    if (!ticket) throw new Error(`seed ${DESK_SEED} has no ${scenario} ticket in 60`);
    // An empty env: the scripted models, whatever the developer's shell exports.
    const desk = buildDesk(deskModels(DESK_SEED, {}));
    answers.push((await desk.run(ticket.text, { conversationId: ticket.id, conversationStore: new MemoryConversationStore() })).text);
  }
  return answers;
}

/** The router is asked with temperature 0 and no tools (its decision is an invoke_agent span); the agents have tools; every prompt has a system part. */
export function deskSpanFacts(span: ReadableSpan): readonly string[] {
  const a = span.attributes;
  switch (a['gen_ai.operation.name']) {
    case 'chat': {
      const router = a['footprint.agent'] === 'router';
      // a call that met the tech provider's scripted outage (cli/desk/providers.ts) failed: no response data
      const failed = a['error.type'] !== undefined;
      return chatAttributes({ usage: 'tokens', temperature: router, tools: !router, separateSystemPrompt: true, conversation: true, content: true, failed });
    }
    case 'invoke_agent': {
      const member = a['footprint.member.id'] === 'billing' || a['footprint.member.id'] === 'tech';
      // The router's decision (its model call) is asked with temperature 0, no tools, no description.
      const router = a['footprint.member.id'] === 'router';
      return agentAttributes({ description: member, tools: member, temperature: router, usage: true, conversation: true, content: true });
    }
    case 'execute_tool':
      return toolAttributes({ failed: a['footprint.tool.status'] !== 'ok', content: true, skill: a['gen_ai.tool.name'] === 'read_skill' });
    case 'invoke_workflow':
      return workflowAttributes({ conversation: true });
    default:
      return [];
  }
}

/** A desk model call fails only at the tech provider's scripted outage (error.type 503 on its points). */
export function deskPointFacts(metric: string, attributes: Attributes): readonly string[] {
  return pointAttributes(metric, { operation: attributes['gen_ai.operation.name'], failed: attributes['error.type'] !== undefined });
}
