/**
 * An instrument hears a run's stage starts and ends from the run itself, when its stages report them
 * (hub.ts subscribeStages: every chart of the run is the runtime's own, chart.ts runtimeChart), instead
 * of attaching a footprintjs recorder to the executor. Not part of RunEvents, the public face of a
 * run's events: the instruments of this package use it, and a run whose stages do not report
 * themselves (or an events source that is no hub) says so with undefined.
 */
import { EventHub } from './hub.js';
import type { RunEvents, StageListener } from './runEvents.js';

/** Subscribes `listener` to the run's stage reports; returns what unsubscribes, or undefined when the run's stages report nothing. */
export function subscribeStages(events: RunEvents, listener: StageListener): (() => void) | undefined {
  return events instanceof EventHub ? events.subscribeStages(listener) : undefined;
}
