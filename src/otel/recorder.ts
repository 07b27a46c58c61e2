/**
 * The footprintjs recorder of a traced run: one CombinedRecorder per executor under the well-known
 * id 'footprint-otel.trace', delivered inline (hooks must run at the moment they describe, before
 * the stage body, or neither timing nor context activation works). In detail 'full' it carries the
 * scope and flow hooks of the stage layout; in 'semantic' only the emit hook, so footprintjs keeps
 * its narrative off. Every hook is guarded: the bridge never throws into the engine.
 */
import type { CombinedRecorder, EmitEvent } from 'footprintjs';
import { isFootprintEvent, now } from '../events/index.js';
import { flatten } from './attributes.js';
import { pathOf, type Layout } from './layout.js';
import { guarded } from './safety.js';
import type { StageSpans } from './stageSpans.js';

export const TRACE_RECORDER_ID = 'footprint-otel.trace';

const STAGE_HOOKS = [
  'onStageStart',
  'onStageEnd',
  'onRunStart',
  'onStageExecuted',
  'onDecision',
  'onSelected',
  'onFork',
  'onSubflowEntry',
  'onSubflowExit',
  'onError',
  'onStageRetry',
  'onLoop',
  'onBreak',
  'onPause',
  'onResume',
  'onRunEnd',
  'onRunFailed',
] as const satisfies readonly (keyof StageSpans & keyof CombinedRecorder)[];

/**
 * @param stages the stage layout (detail 'full'), or undefined for detail 'semantic'
 * @param typedEventsFromHub true when typed events reach the bridge through a run hub, so the emit
 *   hook leaves them alone; other emits (user `$emit`, `$debug`, `$metric`) become span events.
 */
export function traceRecorder(layout: Layout, stages: StageSpans | undefined, typedEventsFromHub: boolean): CombinedRecorder {
  const recorder: Record<string, unknown> = {
    id: TRACE_RECORDER_ID,
    delivery: 'inline',
    onEmit: guarded('onEmit', (event: EmitEvent) => {
      if (typedEventsFromHub && isFootprintEvent(event.name)) return;
      const target = layout.stage(event.runtimeStageId) ?? layout.container(pathOf(event.runtimeStageId));
      target.span.addEvent(event.name, flatten(event.payload, ''), now());
    }),
  };
  if (stages) {
    for (const hook of STAGE_HOOKS) {
      const method = stages[hook] as (event: unknown) => void;
      recorder[hook] = guarded(hook, (event: unknown) => method.call(stages, event));
    }
  }
  return recorder as unknown as CombinedRecorder;
}
