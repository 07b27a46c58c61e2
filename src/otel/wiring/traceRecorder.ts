/**
 * The footprintjs recorder of a traced run: one CombinedRecorder per executor under the well-known
 * id 'footprint-otel.trace', delivered inline (hooks must run at the moment they describe, before
 * the stage body, or neither timing nor context activation works). It carries the hooks its layout
 * asks for (the executor layout: scope and flow hooks; the runner layout: onStageStart/onStageEnd
 * only; the semantic layout: none) and, for a plain executor, the emit hook. A runner run's emits
 * reach the bridge through its run hub instead (typed events, and the others through
 * subscribeOthers), so its recorder has no emit hook and a semantic run attaches none at all: every
 * recorder hook costs footprintjs a dispatch per stage or emit. Without flow hooks footprintjs keeps
 * its narrative off. Every hook is guarded: the bridge never throws into the engine.
 */
import type { CombinedRecorder, EmitEvent } from 'footprintjs';
import { now } from '../../events/index.js';
import { flatten } from '../encoding/index.js';
import { emitterSpan, type SpanLayout } from '../placement/index.js';
import { guarded } from './safety.js';

export const TRACE_RECORDER_ID = 'footprint-otel.trace';

/** The recorder for `layout`, with `onEmit` as its emit hook when emits do not come through a run hub; undefined when it would hear nothing. */
export function traceRecorder(layout: SpanLayout, onEmit?: (event: EmitEvent) => void): CombinedRecorder | undefined {
  const hooks = layout.hooks(guarded);
  if (!onEmit && Object.keys(hooks).length === 0) return undefined;
  return { id: TRACE_RECORDER_ID, delivery: 'inline', ...hooks, ...(onEmit ? { onEmit } : {}) };
}

/** An emit that is no typed event (user `$emit`, `$debug`, `$metric`) as a span event on its stage's span. */
export function emitAsSpanEvent(layout: SpanLayout): (event: EmitEvent) => void {
  return guarded('onEmit', (event: EmitEvent) => {
    emitterSpan(layout, event.runtimeStageId).span.addEvent(event.name, flatten(event.payload, ''), now());
  });
}
