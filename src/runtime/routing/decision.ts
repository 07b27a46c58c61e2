/**
 * Parsing the router model's answer: `{ agentId?, message, reason? }` as JSON (one wrapping code fence
 * is tolerated, since models add them). Anything else is a RoutingDecisionError carrying the raw text.
 * `agentId` absent, null or blank means "no agent: `message` is the final answer"; with an agent,
 * an empty `message` hands the router's own input on unchanged.
 */
import { parseModelJson } from '../run/index.js';
import { RoutingDecisionError } from './errors.js';

export interface ParsedDecision {
  agentId?: string;
  message: string;
  reason?: string;
}

export function parseRoutingDecision(raw: string, input: string): ParsedDecision {
  let value: unknown;
  try {
    value = parseModelJson(raw);
  } catch {
    throw new RoutingDecisionError('the router answer is not JSON', raw, 'not_json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RoutingDecisionError('the router answer is not a JSON object', raw, 'not_object');
  }
  const { agentId, message, reason } = value as Record<string, unknown>;
  if (agentId !== undefined && agentId !== null && typeof agentId !== 'string') {
    throw new RoutingDecisionError('"agentId" must be a string when present', raw, 'bad_field');
  }
  if (reason !== undefined && reason !== null && typeof reason !== 'string') {
    throw new RoutingDecisionError('"reason" must be a string when present', raw, 'bad_field');
  }
  const chosen = typeof agentId === 'string' && agentId.trim() !== '' ? agentId.trim() : undefined;
  if (typeof message !== 'string' || (message === '' && chosen === undefined)) {
    throw new RoutingDecisionError('"message" must be a string (non-empty when no agent is chosen)', raw, 'bad_field');
  }
  return {
    agentId: chosen,
    message: message === '' ? input : message,
    reason: typeof reason === 'string' && reason !== '' ? reason : undefined,
  };
}
