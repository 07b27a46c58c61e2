/**
 * The footprintjs recorder of a traced run: one CombinedRecorder per executor under the well-known
 * id 'footprint-otel.trace', delivered inline (hooks must run at the moment they describe, before
 * the stage body, or neither timing nor context activation works). It carries the hooks its layout
 * asks for (the executor layout: scope and flow hooks; the runner layout: onStageStart/onStageEnd
 * only; the semantic layout: none) and, for a plain executor, the emit hook. A runner run's emits
 * reach the bridge through its run hub instead (typed events, and the others through
 * subscribeOthers), so its recorder has no emit hook; a semantic run attaches none at all, and nor
 * does a full-detail run of the runtime's own charts, whose stages report to its hub
 * (asStageListener below): every recorder on an executor costs footprintjs a notice per stage or
 * emit. Without flow hooks footprintjs keeps its narrative off. Every hook is guarded: the bridge
 * never throws into the engine.
 */
import type { CombinedRecorder, EmitEvent } from 'footprintjs';
import { now } from '../../events/index.js';
import { flatten } from '../encoding/index.js';
import type { StageExecution, StageListener } from '../../runtime/index.js';
import { emitterSpan, type SpanLayout } from '../placement/index.js';
import { guarded } from './safety.js';

export const TRACE_RECORDER_ID = 'footprint-otel.trace';

/** The recorder for `layout`, with `onEmit` as its emit hook when emits do not come through a run hub; undefined when it would hear nothing. */
export function traceRecorder(layout: SpanLayout, onEmit?: (event: EmitEvent) => void): CombinedRecorder | undefined {
  const hooks = layout.hooks(guarded);
  if (!onEmit && Object.keys(hooks).length === 0) return undefined;
  return { id: TRACE_RECORDER_ID, delivery: 'inline', ...hooks, ...(onEmit ? { onEmit } : {}) };
}

/**
 * The recorder's stage hooks as a run hub's stage listener (runtime/run/hub.ts subscribeStages), when
 * stage hooks are all it has (the runner layout's, full detail): the run's stages then report to the
 * hub and no footprintjs recorder is attached. The runner layout's hooks read only what names a stage
 * execution (runtime StageExecution), which a reported stage gives as footprintjs's StageEvent does.
 */
export function asStageListener(recorder: CombinedRecorder): StageListener | undefined {
  const { id: _id, delivery: _delivery, onStageStart, onStageEnd, ...others } = recorder;
  if (!onStageStart || !onStageEnd || Object.keys(others).length > 0) return undefined;
  return { started: onStageStart as (stage: StageExecution) => void, ended: onStageEnd as (stage: StageExecution) => void };
}

/** An emit that is no typed event (user `$emit`, `$debug`, `$metric`) as a span event on its stage's span. */
export function emitAsSpanEvent(layout: SpanLayout): (event: EmitEvent) => void {
  return guarded('onEmit', (event: EmitEvent) => {
    emitterSpan(layout, event.runtimeStageId).span.addEvent(event.name, flatten(event.payload, ''), now());
  });
}
