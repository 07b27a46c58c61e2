/**
 * The one emit helper. Stage code calls `emit(scope, type, payload)`; the name and payload are checked
 * against the catalog at compile time and travel on footprintjs's emit channel, which stamps the
 * runtime stage id. The run's event hub receives it synchronously at the call site and stamps the
 * high-resolution time, so "when" is exact even for async stages.
 */
import { EVENT_TYPES, type EventPayloads, type EventType } from './catalog.js';

/** The part of a footprintjs scope the helper needs (every TypedScope has it). */
export interface EmitScope {
  $emit(name: string, payload?: unknown): void;
}

export function emit<K extends EventType>(scope: EmitScope, type: K, payload: EventPayloads[K]): void {
  scope.$emit(type, payload);
}

const CATALOG = new Set<string>(EVENT_TYPES);

/** True when `name` is an event of the catalog (events/catalog.ts). */
export function isFootprintEvent(name: string): name is EventType {
  return CATALOG.has(name);
}
