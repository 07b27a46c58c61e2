/**
 * The streamed scenario's run and data facts: the invoice agent on a scripted provider that reports
 * a server (as the HTTP providers do), streamed with runner.stream(): a tool call whose arguments
 * arrive in fragments, then an answer in chunks. Every call streams, both get a first chunk, both
 * report usage.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MemoryConversationStore, scripted, type LLMProvider } from '../../../src/index.js';
import { invoiceAgent } from './agents.js';
import { agentAttributes, chatAttributes, pointAttributes, toolAttributes } from './facts.js';

export const SESSION = 'session-streamed';
export const ANSWER = 'INV-1001 is paid.';

function streamingProvider(): LLMProvider {
  const provider = scripted({
    name: 'openai',
    chunkChars: 4,
    chunkDelayMs: 1,
    replies: [
      { toolCalls: [{ id: 'call_1', name: 'lookup_invoice', args: { id: 'INV-1001' } }], usage: { input: 300, output: 30 } },
      { content: ANSWER, usage: { input: 400, output: 40 } },
    ],
  });
  return { ...provider, server: { address: 'models.internal', port: 8443 } };
}

/** Streams the run to its end; returns the text the stream gave and the run's result. */
export async function runStreamed(): Promise<{ text: string; result: unknown }> {
  const stream = invoiceAgent(streamingProvider()).stream('Was INV-1001 paid?', { conversationId: SESSION, conversationStore: new MemoryConversationStore() });
  let text = '';
  for await (const part of stream) if (part.type === 'text') text += part.delta;
  return { text, result: (await stream.result).text };
}

export function streamedFacts(span: ReadableSpan): readonly string[] {
  switch (span.attributes['gen_ai.operation.name']) {
    case 'chat':
      return chatAttributes({ usage: 'tokens', maxTokens: true, tools: true, separateSystemPrompt: true, server: true, conversation: true, streamed: true, content: true });
    case 'invoke_agent':
      return agentAttributes({ maxTokens: true, usage: true, tools: true, conversation: true, content: true });
    case 'execute_tool':
      return toolAttributes({ content: true });
    default:
      return [];
  }
}

export function streamedPointFacts(metric: string, attributes: Attributes): readonly string[] {
  return pointAttributes(metric, { operation: attributes['gen_ai.operation.name'], failed: false, server: true });
}
