/**
 * A run's events as an instrument (and the outcome tracker) hears them: the typed events, and the
 * emits that are no typed event. The event hub (hub.ts) is the one source; this is all of it a
 * listener outside the runtime's own machinery gets.
 */
import type { EmitEvent } from 'footprintjs';
import type { EventType, TypedEvent } from '../../events/index.js';

export type HubListener = (event: TypedEvent) => void;
/** Hears the run's emits that are not typed events (user `$emit`, `$debug`, `$metric`), as footprintjs gives them. */
export type OtherEmitListener = (event: EmitEvent) => void;

export interface RunEvents {
  /**
   * Every typed event of the run but a model call's chunks, before user listeners, or only those of
   * `types` when given; returns what unsubscribes. A run leaves out of a payload what only its readers
   * need when nothing reads events of its type (llm_start's input parts, hub.ts `hears`): a listener
   * that reads a few types says which.
   */
  subscribe(listener: HubListener, types?: readonly EventType[]): () => void;
  /** The run's other emits; the listener guards itself. */
  subscribeOthers(listener: OtherEmitListener): () => void;
}
