/**
 * The footprintjs recorder of a traced run: one CombinedRecorder per executor under the well-known
 * id 'footprint-otel.trace', delivered inline (hooks must run at the moment they describe, before
 * the stage body, or neither timing nor context activation works). In detail 'full' it carries the
 * scope and flow hooks of the stage layout (plain charts) or only the scope hooks onStageStart /
 * onStageEnd of the runner layout (runner runs); in 'semantic' only the emit hook. Without flow hooks
 * footprintjs keeps its narrative off. Every hook is guarded: the bridge never throws into the engine.
 */
import type { CombinedRecorder, EmitEvent } from 'footprintjs';
import { isFootprintEvent, now, stageIds } from '../events/index.js';
import { flatten } from './attributes.js';
import type { Layout } from './layout.js';
import { guarded } from './safety.js';
import type { RunnerSpans } from './runnerSpans.js';
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

/** The runner layout's hooks: scope hooks only, so footprintjs attaches no flow recorder. */
const RUNNER_HOOKS = ['onStageStart', 'onStageEnd'] as const satisfies readonly (keyof RunnerSpans & keyof CombinedRecorder)[];

export type StageHooks = { kind: 'stages'; hooks: StageSpans } | { kind: 'runner'; hooks: RunnerSpans };

/**
 * @param stages the stage layout (detail 'full': flow + scope hooks for plain charts, scope hooks only
 *   for runner runs), or undefined for detail 'semantic'
 * @param typedEventsFromHub true when typed events reach the bridge through a run hub, so the emit
 *   hook leaves them alone; other emits (user `$emit`, `$debug`, `$metric`) become span events.
 */
export function traceRecorder(layout: Layout, stages: StageHooks | undefined, typedEventsFromHub: boolean): CombinedRecorder {
  const recorder: Record<string, unknown> = {
    id: TRACE_RECORDER_ID,
    delivery: 'inline',
    onEmit: guarded('onEmit', (event: EmitEvent) => {
      if (typedEventsFromHub && isFootprintEvent(event.name)) return;
      const target = layout.stage(event.runtimeStageId) ?? layout.container(stageIds.subflowPathOf(event.runtimeStageId));
      target.span.addEvent(event.name, flatten(event.payload, ''), now());
    }),
  };
  if (stages) {
    const target = stages.hooks as unknown as Record<string, (event: unknown) => void>;
    for (const hook of stages.kind === 'runner' ? RUNNER_HOOKS : STAGE_HOOKS) {
      const method = target[hook];
      recorder[hook] = guarded(hook, (event: unknown) => method.call(target, event));
    }
  }
  return recorder as unknown as CombinedRecorder;
}
