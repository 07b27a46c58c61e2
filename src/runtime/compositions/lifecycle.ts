/**
 * The opening and closing every composition shares: the first stage reads the input message and
 * emits composition.enter; the final stage emits composition.exit (status, duration, stop reason),
 * writes the answer to scope `output` and returns it (the chart contract of every runner).
 *
 * Replays: when a run resumes from a pause deep inside nested compositions, footprintjs re-enters
 * every enclosing composition from its first stage with its saved state (the pause checkpoint's
 * subflow states). A composition whose state is already open is such a replay: it must not be
 * opened (or announced) twice, so enter() reports it and the caller keeps its saved state.
 */
import type { TypedScope } from 'footprintjs';
import { emit, now, type EventPayloads, type MemberRef } from '../../events/index.js';

export interface CompositionState {
  /**
   * The message the next member receives: the input, then each member's output in turn. (Not
   * `message`: that is the run's input key, which footprintjs keeps read-only.)
   */
  current: string;
  startedAt: number;
  output: string;
}

export type CompositionScope<S extends CompositionState = CompositionState> = TypedScope<S>;

type ExitStatus = EventPayloads['footprint.composition.exit']['status'];

/**
 * Opens the composition: reads `$getArgs().message` and emits composition.enter. Returns false (and
 * does nothing) when the composition is already open, i.e. a resumed run is replaying its opening.
 */
export function enter(scope: CompositionScope, member: MemberRef, childCount: number): boolean {
  if (scope.startedAt !== undefined) return false;
  scope.current = String(scope.$getArgs<{ message?: unknown }>().message ?? '');
  scope.startedAt = now();
  emit(scope, 'footprint.composition.enter', { compositionId: member.id, kind: member.kind, childCount });
  return true;
}

/** Closes the composition with its answer: emits composition.exit, writes `output`, returns it. */
export function exit(
  scope: CompositionScope,
  member: MemberRef,
  output: string,
  status: ExitStatus = 'ok',
  stopReason?: string,
): string {
  emit(scope, 'footprint.composition.exit', {
    compositionId: member.id,
    kind: member.kind,
    status,
    durationMs: Math.max(0, now() - scope.startedAt),
    stopReason,
  });
  scope.output = output;
  return output;
}
