/** The desk's tools: invoices for billing; service status and restarts for tech (restarting payments fails). */
import type { Tool } from '../../index.js';

export const lookupInvoice: Tool<{ id: string }, Record<string, unknown>> = {
  name: 'lookup_invoice',
  description: 'Look up an invoice by id (INV-nnnn): amount, status and payments.',
  inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^INV-\\d+$' } }, required: ['id'], additionalProperties: false },
  execute: ({ id }) => {
    const n = Number(id.slice(4));
    return n % 7 === 0
      ? { id, found: false }
      : { id, found: true, amountUsd: (n % 500) + 19.99, status: 'paid', payments: n % 3 === 0 ? 2 : 1 };
  },
};

export const readServiceStatus: Tool<{ service: string }> = {
  name: 'read_service_status',
  description: 'Read the current health of a service.',
  inputSchema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'], additionalProperties: false },
  execute: ({ service }) => ({ service, status: service === 'email' ? 'healthy' : 'degraded', errorRate: 0.12 }),
};

export const restartService: Tool<{ service: string }> = {
  name: 'restart_service',
  description: 'Restart a service (needs operator rights for payments).',
  inputSchema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'], additionalProperties: false },
  execute: ({ service }) => {
    if (service === 'payments') throw new Error('restart refused: payments needs an operator');
    return { service, restarted: true };
  },
};
