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
import { flatten, type FieldNaming } from './bounded.js';
import { ATTR_FOOTPRINT_MEMBER_ID, ATTR_FOOTPRINT_MEMBER_KIND, ATTR_FOOTPRINT_ROUTE } from './semconv.js';

/**
 * Content fields by event, as paths into the payload. (Model and tool call events become spans, not
 * span events; their content goes only into the opt-in gen_ai.* attributes.)
 */
const CONTENT_FIELDS: Partial<Record<EventType, readonly (readonly string[])[]>> = {
  'footprint.agent.turn_start': [['message']],
  'footprint.agent.turn_end': [['answer']],
  'footprint.run.paused': [['question']],
  'footprint.run.resumed': [['question']],
  'footprint.composition.route_decided': [['evidence', 'reason']],
};

export function eventAttributes(event: TypedEvent, capture: boolean): Attributes {
  const hidden = capture ? undefined : CONTENT_FIELDS[event.type];
  let payload: unknown = event.payload;
  for (const path of hidden ?? []) payload = without(payload, path);
  const attributes = flatten(payload, event.type, {}, otelNamed);
  attributes[ATTR_FOOTPRINT_MEMBER_KIND] = event.meta.member.kind;
  attributes[ATTR_FOOTPRINT_MEMBER_ID] = event.meta.member.id;
  if (event.meta.route !== '') attributes[ATTR_FOOTPRINT_ROUTE] = event.meta.route;
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

/** A field's OTel name (see the header): a millisecond number is recorded in seconds under its duration name. */
const otelNamed: FieldNaming = (field, value) => {
  const names = namesOf(field);
  return names.duration !== undefined && typeof value === 'number' ? [names.duration, value / 1000] : [names.plain, value];
};

interface OtelNames {
  plain: string;
  /** For a `…Ms` field: its name once the value is in seconds. */
  duration?: string;
}

/**
 * Names by payload field. Field names come from the event catalog, so this stays small; it is
 * bounded anyway (a payload may carry a map keyed by data), and past the bound names are computed.
 */
const namesByField = new Map<string, OtelNames>();
const MAX_FIELDS = 1024;

function namesOf(field: string): OtelNames {
  let names = namesByField.get(field);
  if (names) return names;
  const millis = MILLISECONDS.exec(field);
  names = { plain: snakeCase(field), duration: millis ? durationName(millis[1]!) : undefined };
  if (namesByField.size < MAX_FIELDS) namesByField.set(field, names);
  return names;
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
