/**
 * A typed event as span-event attributes: its payload flattened and bounded under the event's own
 * name (a ping-pong trip carries `footprint.route.trip.kind=ping_pong`, so a Jaeger tag search is
 * unambiguous), plus the member that emitted it. Payload fields that hold content (the user's message, the answer, a pause question, an
 * LLM router's free-text reason) are left out unless content capture is on.
 *
 * Payload field names follow OTel attribute naming here, in this one place, so no event rule has to:
 * camelCase becomes snake_case (`costUsd` -> `cost_usd`, `turnId` -> `turn_id`), and a millisecond
 * duration becomes seconds under a name without the unit (`durationMs` -> `duration`,
 * `waitedMs` -> `waited_duration`), as OTel names durations.
 */
import type { Attributes } from '@opentelemetry/api';
import type { EventType, TypedEvent } from '../../events/index.js';
import { flatten, MAX_DEPTH } from './bounded.js';
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
  const attributes = flatten(otelNamed(payload, 0), event.type);
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

/**
 * A copy of a plain payload object with OTel field names (see the header), down to the depth
 * flatten() walks; anything else (lists, class instances, values) is left for flatten() to bound.
 */
function otelNamed(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || !isPlainObject(value)) return value;
  const named: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = readField(value, key);
    const millis = MILLISECONDS.exec(key);
    if (millis && typeof child === 'number') named[durationName(millis[1])] = child / 1000;
    else named[snakeCase(key)] = otelNamed(child, depth + 1);
  }
  return named;
}

/** A getter that throws leaves a marker, as flatten() does. */
function readField(value: Record<string, unknown>, key: string): unknown {
  try {
    return value[key];
  } catch {
    return '[unreadable]';
  }
}

const MILLISECONDS = /^(.+)Ms$/;

function durationName(stem: string): string {
  const name = snakeCase(stem);
  return name === 'duration' || name.endsWith('_duration') ? name : `${name}_duration`;
}

/** `costSinceLoopUsd` -> `cost_since_loop_usd`; any character OTel names do not use becomes `_`. */
function snakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
