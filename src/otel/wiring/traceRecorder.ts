/**
 * The footprintjs recorder of a traced run: one CombinedRecorder per executor under the well-known
 * id 'footprint-otel.trace', delivered inline (hooks must run at the moment they describe, before
 * the stage body, or neither timing nor context activation works). It carries the hooks its layout
 * asks for (the executor layout: scope and flow hooks; the runner layout: onStageStart/onStageEnd
 * only; the semantic layout: none) and the emit hook. Without flow hooks footprintjs keeps its
 * narrative off. Every hook is guarded: the bridge never throws into the engine.
 */
import type { CombinedRecorder, EmitEvent } from 'footprintjs';
import { isFootprintEvent, now } from '../../events/index.js';
import { flatten } from '../encoding/index.js';
import { emitterSpan, type SpanLayout } from '../placement/index.js';
import { guarded } from './safety.js';

export const TRACE_RECORDER_ID = 'footprint-otel.trace';

export interface TraceRecorderInit {
  layout: SpanLayout;
  /**
   * True when typed events reach the bridge through a run hub (runner runs), so the emit hook leaves
   * them alone; every other emit (user `$emit`, `$debug`, `$metric`) becomes a span event.
   */
  typedEventsFromHub: boolean;
}

export function traceRecorder({ layout, typedEventsFromHub }: TraceRecorderInit): CombinedRecorder {
  return {
    id: TRACE_RECORDER_ID,
    delivery: 'inline',
    ...layout.hooks(guarded),
    onEmit: guarded('onEmit', (event: EmitEvent) => {
      if (typedEventsFromHub && isFootprintEvent(event.name)) return;
      emitterSpan(layout, event.runtimeStageId).span.addEvent(event.name, flatten(event.payload, ''), now());
    }),
  };
}
