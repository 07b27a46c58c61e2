/**
 * A typed event as span-event attributes: its payload flattened and bounded under the event's own
 * name (a ping-pong trip carries `footprint.route.trip.kind=ping_pong`, so a Jaeger tag search is
 * unambiguous), plus the member that emitted it. Payload fields that hold content (the user's message, the answer, a pause question, an
 * LLM router's free-text reason) are left out unless content capture is on.
 */
import type { Attributes } from '@opentelemetry/api';
import type { EventType, TypedEvent } from '../../events/index.js';
import { flatten } from './bounded.js';
import { FP_MEMBER_ID, FP_MEMBER_KIND, FP_ROUTE } from './semconv.js';

/**
 * Content fields by event, as dotted paths into the payload. (Model and tool call events become
 * spans, not span events; their content goes only into the opt-in gen_ai.* attributes.)
 */
const CONTENT_FIELDS: Partial<Record<EventType, readonly string[]>> = {
  'footprint.agent.turn_start': ['message'],
  'footprint.agent.turn_end': ['answer'],
  'footprint.run.paused': ['question'],
  'footprint.run.resumed': ['question'],
  'footprint.composition.route_decided': ['evidence.reason'],
};

export function eventAttributes(event: TypedEvent, capture: boolean): Attributes {
  const hidden = capture ? undefined : CONTENT_FIELDS[event.type];
  let payload: unknown = event.payload;
  for (const path of hidden ?? []) payload = without(payload, path.split('.'));
  const attributes = flatten(payload, event.type);
  attributes[FP_MEMBER_KIND] = event.meta.member.kind;
  attributes[FP_MEMBER_ID] = event.meta.member.id;
  if (event.meta.route !== '') attributes[FP_ROUTE] = event.meta.route;
  return attributes;
}

/** A copy of `value` without the field at `path` (the original payload is shared, never changed). */
function without(value: unknown, path: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || path.length === 0) return value;
  const [head, ...rest] = path;
  if (!(head in value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (rest.length === 0) delete copy[head];
  else copy[head] = without(copy[head], rest);
  return copy;
}
