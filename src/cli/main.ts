/** The footprint-otel command line: `demo` (the default) runs a scripted agent and prints what it did. */
import { Agent, scripted } from '../index.js';

const provider = scripted({
  replies: [
    { toolCalls: [{ name: 'lookup_invoice', args: { id: 'INV-42' } }], usage: { input: 120, output: 18 } },
    { content: 'Invoice INV-42 was paid on 2026-11-02.', usage: { input: 180, output: 14 } },
  ],
});
const agent = Agent.create({ provider, model: 'gpt-4o-mini', id: 'billing' })
  .system('You answer billing questions.')
  .tool({
    name: 'lookup_invoice',
    description: 'Look up an invoice by id',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    execute: (args: { id: string }) => ({ id: args.id, status: 'paid', paidAt: '2026-11-02' }),
  })
  .build();
const stages: string[] = [];
agent.on('*', (event) => stages.push(`${event.meta.runtimeStageId.padEnd(16)} ${event.type}`));
const answer = await agent.run('Was invoice INV-42 paid?');
console.log(stages.join('\n'));
console.log(`\nanswer: ${String(answer)}`);
