/**
 * Typed handler tables: a map from event type to what a consumer does with that event, so every
 * consumer (spans, metrics, the outcome tracker, the CLI summary) says per event what it does, with
 * the payload typed for that event and no cast at the call site. `handleEvent` is the one place that
 * relies on the table being keyed by the event's own type.
 */
import type { EventType } from './catalog.js';
import type { TypedEvent } from './envelope.js';

export type EventHandlers = { readonly [K in EventType]?: (event: TypedEvent<K>) => void };

/** Calls the handler of `event.type`, if the table has one; returns whether it had. */
export function handleEvent(handlers: EventHandlers, event: TypedEvent): boolean {
  const handler = handlers[event.type] as ((event: TypedEvent) => void) | undefined;
  if (!handler) return false;
  handler(event);
  return true;
}
