/**
 * What the structured-output tests of every wire format share: a server that answers request n with
 * body n, the agent's output_invalid payloads, and the one invalid first answer they all script
 * ('{"city":"Oslo"}', no celsius) as its event says it.
 */
import type { ServerResponse } from 'node:http';
import { expect } from 'vitest';
import type { TypedEvent } from '../../../src/index.js';
import { sendJson, type SeenRequest } from '../providers/wireServer.js';

/** Answers the n-th request with the n-th body. */
export function inTurn(bodies: unknown[]) {
  return (_request: SeenRequest, res: ServerResponse, index: number) => sendJson(res, 200, bodies[index]);
}

export function invalidEvents(events: TypedEvent[]) {
  return events.flatMap((e) => (e.type === 'footprint.agent.output_invalid' ? [(e as TypedEvent<'footprint.agent.output_invalid'>).payload] : []));
}

/** The output_invalid payload of a first answer '{"city":"Oslo"}' that is retried, its schema's words `message`. */
export function retriedOsloAnswer(message: string) {
  return {
    agentId: 'desk',
    turnId: expect.stringMatching(/^turn_/),
    iteration: 1,
    callId: expect.stringMatching(/^call_/),
    attempt: 1,
    retrying: true,
    text: '{"city":"Oslo"}',
    error: { type: 'invalid_output', message },
  };
}
