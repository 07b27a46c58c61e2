/**
 * Helpers every runtime chart is built with: a quiet engine logger (footprintjs logs failures to the
 * console by default, which costs tens of milliseconds and spams the app), and a stage wrapper that
 * tags a thrown error with the member and stage it came from.
 */
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
