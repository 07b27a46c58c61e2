/**
 * One run per run outcome, through the public API: answered (the fake OpenAI agent), stopped early
 * (an agent out of iterations; a swarm out of hand-offs), failed (a 429 with retries off), cancelled
 * (the caller aborts during the model call) and paused (a tool asks a human). Each resolves to how it
 * ended, so a test can assert that too.
 */
import { MemoryConversationStore, Agent, isPaused, RunCancelledError, scripted, swarm, type ScriptedReply } from '../../../src/index.js';
import { lookupInvoice } from '../../../src/cli/desk/tools.js';
import { PRICING } from './agents.js';
import { runRateLimitedThenAnswered, runRateLimitedToFailure } from './openai.js';

export type Ending = 'answered' | 'stopped_early' | 'failed' | 'cancelled' | 'paused';

/** Usage of every scripted call below: 500 in, 50 out (gpt-4o-mini prices: 0.15 / 0.6 USD per 1M). */
export const SCRIPTED_USAGE = { input: 500, output: 50 };
export const SCRIPTED_CALL_COST = (500 * 0.15 + 50 * 0.6) / 1e6;

const lookupForever = (): ScriptedReply => ({ toolCalls: [{ name: 'lookup_invoice', args: { id: 'INV-1001' } }], usage: SCRIPTED_USAGE });

export async function answered(): Promise<Ending> {
  await runRateLimitedThenAnswered();
  return 'answered';
}

/** The model asks for a tool every time; the agent may iterate twice. */
export async function agentOutOfIterations(): Promise<Ending> {
  const provider = scripted({ name: 'openai', replies: lookupForever });
  const agent = Agent.create({ provider, id: 'looper', name: 'Looper', model: 'gpt-4o-mini', pricing: PRICING, maxIterations: 2 }).tool(lookupInvoice).build();
  await agent.run('Was INV-1001 paid?', { conversationId: 'stopped', conversationStore: new MemoryConversationStore() });
  return 'stopped_early';
}

/** The route always hands the ticket back to the same agent; the swarm allows one hand-off. */
export async function swarmOutOfHandoffs(): Promise<Ending> {
  const provider = scripted({ name: 'openai', replies: () => ({ content: 'Looked at it.', usage: SCRIPTED_USAGE }) });
  const agent = Agent.create({ provider, id: 'desk_agent', name: 'Desk agent', model: 'gpt-4o-mini', pricing: PRICING }).build();
  const relay = swarm({ id: 'relay', agents: [{ id: 'desk_agent', runner: agent }], pick: () => 'desk_agent', maxHandoffs: 1 });
  await relay.run('Was INV-1001 paid?', { conversationId: 'handoffs', conversationStore: new MemoryConversationStore() });
  return 'stopped_early';
}

export async function failed(): Promise<Ending> {
  await runRateLimitedToFailure();
  return 'failed';
}

/** The caller aborts while the model is answering (the reply function aborts, then the reply waits). */
export async function cancelled(): Promise<Ending> {
  const controller = new AbortController();
  const provider = scripted({
    name: 'openai',
    replies: () => {
      controller.abort(new Error('the user closed the ticket'));
      return { content: 'too late', usage: SCRIPTED_USAGE, delayMs: 10_000 };
    },
  });
  const agent = Agent.create({ provider, id: 'slow', name: 'Slow', model: 'gpt-4o-mini', pricing: PRICING }).build();
  try {
    await agent.run('Was INV-1001 paid?', { signal: controller.signal, conversationId: 'cancelled', conversationStore: new MemoryConversationStore() });
  } catch (error) {
    if (error instanceof RunCancelledError) return 'cancelled';
    throw error;
  }
  throw new Error('the run was not cancelled');
}

/** The first reply asks for the approval tool, which pauses for a human. */
export async function paused(): Promise<Ending> {
  const provider = scripted({
    name: 'openai',
    replies: () => ({ toolCalls: [{ name: 'approve_refund', args: {} }], usage: SCRIPTED_USAGE }),
  });
  const agent = Agent.create({ provider, id: 'refunds', name: 'Refunds', model: 'gpt-4o-mini', pricing: PRICING })
    .tool({
      name: 'approve_refund',
      description: 'Ask a human to approve the refund.',
      inputSchema: { type: 'object' },
      execute: async (_args, ctx) => `approved: ${String(await ctx.pause('Refund INV-1001?'))}`,
    })
    .build();
  const out = await agent.run('Refund INV-1001 please.', { conversationId: 'paused', conversationStore: new MemoryConversationStore() });
  if (!isPaused(out)) throw new Error('the run did not pause');
  return 'paused';
}
