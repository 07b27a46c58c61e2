/**
 * Helpers every runtime chart is built with: a quiet engine logger (footprintjs logs failures to the
 * console by default, which costs tens of milliseconds and spams the app), a stage wrapper that
 * tags a thrown error with the member and stage it came from and reports the stage's start and end,
 * and the mark of a chart of the runtime's own (its stages report themselves and raise their events
 * through the run's hub only).
 */
import type { FlowChart } from 'footprintjs';
import type { MemberRef } from '../../events/index.js';
import { stageReport, type EnvScope } from './context.js';
import { tagFailure } from './errors.js';

export const quietLogger = {
  info() {},
  log() {},
  debug() {},
  error() {},
  warn() {},
};

/**
 * Wraps a stage body so that a failure names its member and stage, so that a cancelled run stops at
 * the next stage boundary, and so that the stage reports its start and end to the run's hub when
 * an instrument hears them (hub.ts subscribeStages): the start before the body, the end once the
 * body returned or settled without throwing, as footprintjs's own stage hooks fire (a stage that
 * throws, or pauses by throwing, reports no end). The run's AbortSignal travels in the footprintjs
 * env (not as the traversal's own signal), so a cancelled stage finishes its own bookkeeping — the
 * model call reports its cancellation — before the run ends: listeners and traces see a complete,
 * ordered story.
 */
export function stage<S extends EnvScope, R>(member: MemberRef, stageId: string, body: (scope: S) => R): (scope: S) => R {
  const failed = (error: unknown): never => {
    tagFailure(error, { member, stage: stageId });
    throw error;
  };
  return (scope: S) => {
    const env = scope.$getEnv();
    const report = stageReport(env);
    report?.hub.stageStarted(report.execution);
    try {
      env.signal?.throwIfAborted();
      const result = body(scope);
      if (result instanceof Promise) {
        if (!report) return result.catch(failed) as R;
        return result.then((value: unknown) => {
          report.hub.stageEnded(report.execution);
          return value;
        }, failed) as R;
      }
      report?.hub.stageEnded(report.execution);
      return result;
    } catch (error) {
      return failed(error);
    }
  };
}

/** The charts marked by runtimeChart(). */
const runtimeCharts = new WeakSet<FlowChart>();

/**
 * Marks a chart of the runtime's own, and so every chart it mounts that belongs to no member (a
 * router's model call): every stage body of it is wrapped by stage() (so it reports its start and end
 * to the run's hub), and its stages raise every event through the hub (events/emit.ts) and none
 * through footprintjs's emit channel (`$emit`, `$debug`, `$metric`, ...). A chart a user writes for a
 * Runner of their own is not marked: its stages may `$emit`, and their bodies report nothing. A run
 * whose charts are all marked attaches no footprintjs recorder to hear such emits or stages
 * (runner.ts): with a recorder on the executor, footprintjs builds and dispatches a stage-start, a
 * stage-end and a commit notice on every stage.
 */
export function runtimeChart(chart: FlowChart): FlowChart {
  runtimeCharts.add(chart);
  return chart;
}

/** Whether `chart` was marked by runtimeChart(). */
export function isRuntimeChart(chart: FlowChart): boolean {
  return runtimeCharts.has(chart);
}
