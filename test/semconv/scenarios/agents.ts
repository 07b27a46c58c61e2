/**
 * The agents the conformance scenarios run, built through the public API only: an invoice agent on
 * the fake OpenAI server, and the support desk's building blocks (its tools and tickets) for a
 * Parallel in which one member's provider fails.
 */
import { Agent, openaiCompatible, Parallel, scripted, type LLMProvider, type Runner } from '../../../src/index.js';
import { lookupInvoice } from '../../../src/cli/desk/tools.js';

export const PRICING = { 'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 } };
export const INVOICE_AGENT = { id: 'billing', name: 'Billing', model: 'gpt-4o-mini' };
export const INVOICE_SYSTEM = 'You answer billing questions. Look invoices up before answering.';

/** The OpenAI-compatible provider against the fake server; `retries: false` turns retries off. */
export function fakeOpenAIProvider(url: string, options: { retries: boolean }): LLMProvider {
  return openaiCompatible({ baseURL: `${url}/v1`, apiKey: 'test-key', name: 'openai', maxRetries: options.retries ? 2 : 0, retryBaseMs: 1 });
}

export function invoiceAgent(provider: LLMProvider): Runner {
  return Agent.create({ provider, ...INVOICE_AGENT, pricing: PRICING, maxTokens: 512 }).system(INVOICE_SYSTEM).tool(lookupInvoice).build();
}

/** Two invoice agents side by side; the second one's provider fails. The merge reports both. */
export function panelWithFailingMember(failing: LLMProvider): Runner {
  const working = scripted({
    name: 'openai',
    replies: (request) =>
      request.messages.some((m) => m.role === 'tool')
        ? { content: 'INV-1001 is paid.', usage: { input: 400, output: 40 } }
        : { toolCalls: [{ id: 'call_a', name: 'lookup_invoice', args: { id: 'INV-1001' } }], usage: { input: 300, output: 30 } },
  });
  const first = Agent.create({ provider: working, id: 'first', name: 'First', model: 'gpt-4o-mini', pricing: PRICING }).tool(lookupInvoice).build();
  const second = Agent.create({ provider: failing, id: 'second', name: 'Second', model: 'gpt-4o-mini', pricing: PRICING }).tool(lookupInvoice).build();
  return Parallel.create({ id: 'panel' })
    .branch('first', first)
    .branch('second', second)
    .merge((results) => results.map((r) => `${r.id}:${r.status}`).join(' '))
    .build();
}
