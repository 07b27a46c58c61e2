/**
 * The fake-OpenAI scenarios' runs and data facts: an invoice agent whose first request is rate
 * limited (retried), whose tool call reports cached and reasoning tokens and whose answer has no
 * usage; the same agent with retries off against a server that only rate-limits; and a Parallel in
 * which one member's provider is that server.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MemoryConversationStore, RunFailedError } from '../../../src/index.js';
import { fakeOpenAIProvider, invoiceAgent, panelWithFailingMember } from './agents.js';
import { startFakeOpenAI, startRateLimitedOpenAI } from './fakeOpenAI.js';
import { agentAttributes, chatAttributes, pointAttributes, toolAttributes, workflowAttributes } from './facts.js';

export const SESSION = 'session-openai';

export async function runRateLimitedThenAnswered(): Promise<string> {
  const server = await startFakeOpenAI();
  try {
    return (await invoiceAgent(fakeOpenAIProvider(server.url, { retries: true })).run('Was INV-1001 paid?', { conversationId: SESSION, conversationStore: new MemoryConversationStore() })).text;
  } finally {
    await server.close();
  }
}

/** Resolves to the RunFailedError the run throws (anything else fails the scenario). */
export async function runRateLimitedToFailure(): Promise<RunFailedError> {
  const server = await startRateLimitedOpenAI();
  try {
    await invoiceAgent(fakeOpenAIProvider(server.url, { retries: false })).run('Was INV-1001 paid?', { conversationId: SESSION, conversationStore: new MemoryConversationStore() });
  } catch (error) {
    if (error instanceof RunFailedError) return error;
    throw error;
  } finally {
    await server.close();
  }
  throw new Error('the rate-limited run did not fail');
}

export async function runPanelWithFailingMember(): Promise<string> {
  const server = await startRateLimitedOpenAI();
  try {
    return (await panelWithFailingMember(fakeOpenAIProvider(server.url, { retries: false })).run('Was INV-1001 paid?', { conversationId: SESSION, conversationStore: new MemoryConversationStore() })).text;
  } finally {
    await server.close();
  }
}

/** Call 1 (iteration 1) asks for the tool with full usage; call 2 answers without usage. */
export function answeredFacts(span: ReadableSpan): readonly string[] {
  const a = span.attributes;
  switch (a['gen_ai.operation.name']) {
    case 'chat': {
      const usage = a['footprint.iteration'] === 1 ? 'tokens+cache+reasoning' : 'none';
      return chatAttributes({ usage, responseId: true, maxTokens: true, tools: true, server: true, conversation: true, content: true });
    }
    case 'invoke_agent':
      return agentAttributes({ maxTokens: true, usage: true, cacheRead: true, tools: true, conversation: true, content: true });
    case 'execute_tool':
      return toolAttributes({ content: true });
    default:
      return [];
  }
}

export function failedFacts(span: ReadableSpan): readonly string[] {
  switch (span.attributes['gen_ai.operation.name']) {
    case 'chat':
      return chatAttributes({ failed: true, maxTokens: true, tools: true, server: true, conversation: true, content: true });
    case 'invoke_agent':
      return agentAttributes({ failed: true, maxTokens: true, tools: true, conversation: true, content: true });
    default:
      return [];
  }
}

/** Member "first" is scripted and answers; member "second" calls the rate-limiting server and fails. */
export function panelFacts(span: ReadableSpan): readonly string[] {
  const a = span.attributes;
  const second = a['footprint.agent'] === 'second' || a['footprint.member.id'] === 'second';
  switch (a['gen_ai.operation.name']) {
    case 'chat':
      return second
        ? chatAttributes({ failed: true, tools: true, server: true, conversation: true, content: true })
        : chatAttributes({ usage: 'tokens', tools: true, separateSystemPrompt: false, conversation: true, content: true });
    case 'invoke_agent':
      return second
        ? agentAttributes({ failed: true, tools: true, conversation: true, content: true })
        : agentAttributes({ usage: true, tools: true, conversation: true, content: true });
    case 'execute_tool':
      return toolAttributes({ content: true });
    case 'invoke_workflow':
      return workflowAttributes({ conversation: true });
    default:
      return [];
  }
}

/** Points of calls to the fake server carry its address; a point with error.type counts failed calls. */
export function serverPointFacts(metric: string, attributes: Attributes): readonly string[] {
  return pointAttributes(metric, { operation: attributes['gen_ai.operation.name'], failed: attributes['error.type'] !== undefined, server: true });
}

export function panelPointFacts(metric: string, attributes: Attributes): readonly string[] {
  return pointAttributes(metric, { operation: attributes['gen_ai.operation.name'], failed: attributes['error.type'] !== undefined, server: attributes['footprint.agent'] === 'second' });
}
