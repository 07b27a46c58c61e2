/**
 * The footprintjs recorder of a traced run: one CombinedRecorder per executor under the well-known
 * id 'footprint-otel.trace', delivered inline (hooks must run at the moment they describe, before
 * the stage body, or neither timing nor context activation works). It carries the hooks its layout
 * asks for (the executor layout: scope and flow hooks; the runner layout: onStageStart/onStageEnd
 * only; the semantic layout: none). Emits become span events: a plain executor's through the
 * recorder's emit hook, a runner run's from its hub (typed events as events, the others as they are),
 * so a semantic runner run needs no recorder at all and footprintjs dispatches its emits once.
 * Without flow hooks footprintjs keeps its narrative off. Every hook is guarded: the bridge never
 * throws into the engine.
 */
import type { CombinedRecorder, EmitEvent } from 'footprintjs';
import { now } from '../../events/index.js';
import { flatten } from '../encoding/index.js';
import { emitterSpan, type SpanLayout } from '../placement/index.js';
import { guarded } from './safety.js';

export const TRACE_RECORDER_ID = 'footprint-otel.trace';

/** An emit outside the event catalog (user `$emit`, `$debug`, `$metric`) as a span event, guarded. */
export function otherEmits(layout: SpanLayout): (event: EmitEvent) => void {
  return guarded('onEmit', (event: EmitEvent) => {
    emitterSpan(layout, event.runtimeStageId).span.addEvent(event.name, flatten(event.payload, ''), now());
  });
}

/**
 * The recorder a run needs: the layout's hooks, plus `onEmit` when the emits do not come from a run
 * hub (a plain executor); undefined when that leaves nothing to attach.
 */
export function traceRecorder(layout: SpanLayout, onEmit?: (event: EmitEvent) => void): CombinedRecorder | undefined {
  const hooks = layout.hooks(guarded);
  if (!onEmit && Object.keys(hooks).length === 0) return undefined;
  return { id: TRACE_RECORDER_ID, delivery: 'inline', ...hooks, ...(onEmit ? { onEmit } : {}) };
}
