/**
 * The support desk: an LLM router sends each ticket to billing or tech. Billing looks up invoices;
 * tech works through a skill graph (triage -> diagnose -> fix) with loop guards that escalate to a
 * stronger model on a ping-pong or rejected-cap trip, or after three refused skill jumps.
 */
import { Agent, llmSwarm, type Runner, type Tool } from '../../index.js';
import type { DeskModels } from './providers.js';
import { techGraph } from './skills.js';
import { lookupInvoice } from './tools.js';

/** `invoices`: the billing agent's lookup_invoice, by default the local one (the --mcp demo passes the MCP server's). */
export function buildDesk(models: DeskModels, invoices: Tool = lookupInvoice): Runner {
  const billing = Agent.create({ ...models.billing, id: 'billing', name: 'Billing', maxIterations: 4 })
    .system('You answer billing questions. Look invoices up before answering.')
    .tool(invoices)
    .build();
  const tech = Agent.create({ ...models.tech, id: 'tech', name: 'Tech support', maxIterations: 8 })
    .system('You fix service problems. Work through your skills; use read_skill to move.')
    .skillGraph(techGraph, {
      escalation: { ...models.senior, afterRefusals: 3 },
      pingPongWindow: 4,
      maxRejectedRetries: 3,
      onTrip: 'escalate',
    })
    .build();
  return llmSwarm({
    ...models.router,
    id: 'desk',
    maxHandoffs: 2,
    agents: [
      { id: 'billing', description: 'Invoices, charges, payments and refunds of invoices.', runner: billing },
      { id: 'tech', description: 'Outages, errors and degraded services.', runner: tech },
    ],
  });
}
