/**
 * The benchmark's reference scenario: one scripted agent turn with 3 iterations (two tool-calling
 * rounds, then the answer) and two tools — the same shape the issue fixes, so numbers compare with
 * the public framework's ~12 ms (untraced) and 14-15 ms (traced) on this kind of machine.
 */
import { Agent, registerInstrument, scripted } from '../src/index.js';

export const MESSAGE = 'What is the status of order 1234 and its shipping cost to Lyon?';

/**
 * A conversation of `length` messages that ends with MESSAGE: earlier user questions and the
 * assistant's answers, alternating, as an app that keeps its history passes them to run().
 */
export function conversation(length: number): { role: 'user' | 'assistant'; content: string }[] {
  // Counted from the end, so the message before MESSAGE is the assistant's (the first may be its greeting).
  const earlier = Array.from({ length: length - 1 }, (_, i) =>
    (length - 1 - i) % 2 === 1
      ? { role: 'assistant' as const, content: `Order ${1000 + i} left the warehouse on day ${i} and arrives in ${i % 5} days.` }
      : { role: 'user' as const, content: `Earlier question ${i}: where is order ${1000 + i + 1}?` },
  );
  return [...earlier, { role: 'user', content: MESSAGE }];
}

/**
 * Which of the reference turn's three replies a model call gets: the assistant messages since the
 * last user message (a longer conversation given as the run's input replays the same turn,
 * bench/conversation.ts). The AI SDK peer's mock model picks its replies the same way (bench/peerTurn.ts).
 */
export function turnRound(messages: readonly { role: string }[]): number {
  let round = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role !== 'user'; i--) if (messages[i]!.role === 'assistant') round++;
  return round;
}

/** The stages one reference turn executes, counted by a scope recorder on a turn of its own. */
export async function stagesPerTurn(agent: ReturnType<typeof referenceAgent>): Promise<number> {
  let stages = 0;
  const stop = registerInstrument({
    id: 'bench.count-stages',
    start(run) {
      run.executor.attachScopeRecorder({ id: 'bench.count-stages', onStageStart: () => void stages++ });
      return {};
    },
  });
  try {
    await agent.run(MESSAGE);
  } finally {
    stop();
  }
  return stages;
}

/** The reference turn's agent, built on `pkg`: these sources, or a compiled build's exports (bench/ab.ts). */
export function referenceAgent(pkg: { Agent: typeof Agent; scripted: typeof scripted } = { Agent, scripted }) {
  const provider = pkg.scripted({
    replies: (request) => {
      const round = turnRound(request.messages);
      if (round === 0) return { toolCalls: [{ name: 'order_status', args: { id: '1234' } }], usage: { input: 420, output: 24 } };
      if (round === 1) return { toolCalls: [{ name: 'shipping_cost', args: { to: 'Lyon', kg: 2 } }], usage: { input: 510, output: 22 } };
      return { content: 'Order 1234 shipped; shipping to Lyon costs 12 EUR.', usage: { input: 600, output: 18 } };
    },
  });
  return pkg.Agent.create({ provider, model: 'gpt-4o-mini', id: 'bench-agent' })
    .system('You answer order questions.')
    .tool({
      name: 'order_status',
      description: 'Status of an order',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      execute: (args: { id: string }) => ({ id: args.id, status: 'shipped' }),
    })
    .tool({
      name: 'shipping_cost',
      description: 'Shipping cost to a city',
      inputSchema: { type: 'object', properties: { to: { type: 'string' }, kg: { type: 'number' } }, required: ['to', 'kg'] },
      execute: (args: { to: string; kg: number }) => ({ to: args.to, eur: 6 * args.kg }),
    })
    .build();
}

/** An agent whose only tool pauses for a human: every run ends paused (for the abandoned-pause memory test). */
export function pausingAgent() {
  const provider = scripted({ replies: [{ toolCalls: [{ name: 'approve', args: { amount: 40 } }], usage: { input: 300, output: 12 } }] });
  return Agent.create({ provider, model: 'gpt-4o-mini', id: 'bench-pauser' })
    .tool({
      name: 'approve',
      description: 'Ask a human to approve',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      execute: async (args: { amount: number }, ctx) => ctx.pause(`Approve $${args.amount}?`),
    })
    .build();
}
