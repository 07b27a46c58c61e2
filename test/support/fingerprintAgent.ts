/** The agent both halves of the fingerprint tests run (this process and a child): one tool call, then the answer. */
import { Agent, scripted, type LLMRequest } from '../../src/index.js';

export function fingerprintAgent() {
  const replies = (request: LLMRequest) =>
    request.messages.some((m) => m.role === 'tool') ? 'Invoice 42 is paid.' : { toolCalls: [{ id: 't1', name: 'lookup', args: { q: 'invoice 42' } }] };
  return Agent.create({ provider: scripted({ replies }), model: 'm1', id: 'helper' })
    .system('Be terse.')
    .tool({ name: 'lookup', description: 'Finds an invoice', inputSchema: { type: 'object' }, execute: () => 'invoice 42: paid' })
    .build();
}
