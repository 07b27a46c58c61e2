/**
 * A typed event as span-event attributes: its payload flattened and bounded under the event's own
 * name (a ping-pong trip carries `footprint.loop_guard.trip.kind=ping_pong`, so a Jaeger tag search is
 * unambiguous), plus the member that emitted it. `name` is the span event's name as the semconv mode
 * spells it (semconvMode.ts), so a renamed event's keys follow its name; renamed values are spelled
 * as `mode` spells them. It takes the event's exported view
 * (events/exportedView.ts): content fields are in it only under content capture.
 *
 * Payload field names follow OTel attribute naming here, in this one place, so no event rule has to:
 * camelCase becomes snake_case (`costUsd` -> `cost_usd`, `turnId` -> `turn_id`), and a millisecond
 * duration becomes seconds under a name without the unit (`durationMs` -> `duration`,
 * `waitedMs` -> `waited_duration`), as OTel names durations.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ExportedEvent } from '../../events/index.js';
import { flatten, type FieldNames, type FieldNaming } from './bounded.js';
import { ATTR_FOOTPRINT_MEMBER_ID, ATTR_FOOTPRINT_MEMBER_KIND, ATTR_FOOTPRINT_ROUTE } from './semconv.js';
import { spellValuesIn, type SemconvMode } from './semconvMode.js';

export function eventAttributes(event: ExportedEvent, name: string = event.type, mode: SemconvMode = 'current'): Attributes {
  const attributes = flatten(event.payload, name, {}, otelNamed);
  spellValuesIn(mode, attributes);
  attributes[ATTR_FOOTPRINT_MEMBER_KIND] = event.meta.member.kind;
  attributes[ATTR_FOOTPRINT_MEMBER_ID] = event.meta.member.id;
  if (event.meta.route !== '') attributes[ATTR_FOOTPRINT_ROUTE] = event.meta.route;
  return attributes;
}

/**
 * A field's OTel names (see the header), by payload field. Field names come from the event catalog,
 * so this stays small; it is bounded anyway (a payload may carry a map keyed by data), and past the
 * bound names are computed.
 */
const namesByField = new Map<string, FieldNames>();
const MAX_FIELDS = 1024;

const otelNamed: FieldNaming = (field) => {
  let names = namesByField.get(field);
  if (names) return names;
  const millis = MILLISECONDS.exec(field);
  names = { plain: snakeCase(field), seconds: millis ? durationName(millis[1]!) : undefined };
  if (namesByField.size < MAX_FIELDS) namesByField.set(field, names);
  return names;
};

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
