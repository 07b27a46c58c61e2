/**
 * A run's events as an instrument (and the outcome tracker) hears them: the typed events, and the
 * emits that are no typed event. The event hub (hub.ts) is the one source; this is all of it a
 * listener outside the runtime's own machinery gets.
 */
import type { EmitEvent } from 'footprintjs';
import type { TypedEvent } from '../../events/index.js';

export type HubListener = (event: TypedEvent) => void;
/** Hears the run's emits that are not typed events (user `$emit`, `$debug`, `$metric`), as footprintjs gives them. */
export type OtherEmitListener = (event: EmitEvent) => void;

export interface RunEvents {
  /** Every typed event of the run but a model call's chunks, before user listeners; returns what unsubscribes. */
  subscribe(listener: HubListener): () => void;
  /** The run's other emits; the listener guards itself. */
  subscribeOthers(listener: OtherEmitListener): () => void;
}
