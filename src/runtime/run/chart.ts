/**
 * Helpers every runtime chart is built with: a quiet engine logger (footprintjs logs failures to the
 * console by default, which costs tens of milliseconds and spams the app), a stage wrapper that
 * tags a thrown error with the member and stage it came from, and the mark of a chart whose stages
 * raise their events through the run's hub only.
 */
import type { FlowChart } from 'footprintjs';
import type { MemberRef } from '../../events/index.js';
import type { EnvScope } from './context.js';
import { tagFailure } from './errors.js';

export const quietLogger = {
  info() {},
  log() {},
  debug() {},
  error() {},
  warn() {},
};

/**
 * Wraps a stage body so that a failure names its member and stage, and so that a cancelled run stops
 * at the next stage boundary. The run's AbortSignal travels in the footprintjs env (not as the
 * traversal's own signal), so a cancelled stage finishes its own bookkeeping — the model call reports
 * its cancellation — before the run ends: listeners and traces see a complete, ordered story.
 */
export function stage<S extends EnvScope, R>(member: MemberRef, stageId: string, body: (scope: S) => R): (scope: S) => R {
  return (scope: S) => {
    try {
      scope.$getEnv().signal?.throwIfAborted();
      const result = body(scope);
      if (result instanceof Promise) {
        return result.catch((error: unknown) => {
          tagFailure(error, { member, stage: stageId });
          throw error;
        }) as R;
      }
      return result;
    } catch (error) {
      tagFailure(error, { member, stage: stageId });
      throw error;
    }
  };
}

/** The charts marked by typedEventsOnly(). */
const typedOnly = new WeakSet<FlowChart>();

/**
 * Marks a chart whose stages raise every event through the run's hub (events/emit.ts) and none through
 * footprintjs's emit channel (`$emit`, `$debug`, `$metric`, ...), and so does every chart it mounts that
 * belongs to no member (a router's model call). The runtime's own charts are marked when built; a chart
 * a user writes for a Runner of their own is not, since its stages may `$emit`. A run whose charts are
 * all marked attaches no footprintjs recorder to hear such emits (runner.ts): with a recorder on the
 * executor, footprintjs builds and dispatches a stage-start, a stage-end and a commit notice on every
 * stage, for none.
 */
export function typedEventsOnly(chart: FlowChart): FlowChart {
  typedOnly.add(chart);
  return chart;
}

/** Whether `chart` was marked by typedEventsOnly(). */
export function raisesTypedEventsOnly(chart: FlowChart): boolean {
  return typedOnly.has(chart);
}
