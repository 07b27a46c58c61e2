/**
 * The opening and closing every composition shares: the first stage (openingStage) reads the input
 * message and emits composition.enter; the final stage (closingStage) emits composition.exit (status,
 * duration, stop reason), writes the answer to scope `output` and returns it (the chart contract of
 * every runner). Each composition says only what it sets up and how it closes.
 *
 * Replays: when a run resumes from a pause deep inside nested compositions, footprintjs re-enters
 * every enclosing composition from its first stage with its saved state (the pause checkpoint's
 * subflow states). A composition whose state is already open is such a replay: it must not be
 * opened (or announced) twice, so enter() reports it and the caller keeps its saved state.
 */
import type { TypedScope } from 'footprintjs';
import { emit, now, type EventPayloads, type MemberRef } from '../../events/index.js';
import { stage, stageInput, type MessageOrigin } from '../run/index.js';
import { openLineage, recordAnswer, type LineageState } from './lineage.js';

export interface CompositionState extends LineageState {
  /**
   * The message the next member receives: the input, then each member's output in turn. (Not
   * `message`: that is the run's input key, which footprintjs keeps read-only.)
   */
  current: string;
  /**
   * The conversation the composition was given (ChartInput.thread), when more than the message. (Not
   * `thread`: input keys are read-only in footprintjs's scope.)
   */
  givenThread?: string;
  startedAt: number;
  output: string;
}

export type CompositionScope<S extends CompositionState = CompositionState> = TypedScope<S>;

export type ExitStatus = EventPayloads['footprint.composition.exit']['status'];

/**
 * Opens the composition: reads its input's `message` (stageInput) and emits composition.enter. Returns false (and
 * does nothing) when the composition is already open, i.e. a resumed run is replaying its opening.
 */
function enter(scope: CompositionScope, member: MemberRef, childCount: number): boolean {
  if (scope.startedAt !== undefined) return false;
  const args = stageInput<{ message: unknown; thread: unknown }>(scope);
  scope.current = String(args.message ?? '');
  if (typeof args.thread === 'string') scope.givenThread = args.thread;
  openLineage(scope);
  scope.startedAt = now();
  emit(scope, 'footprint.composition.enter', { compositionId: member.id, kind: member.kind, childCount });
  return true;
}

/** Closes the composition with its answer: emits composition.exit, writes `output`, returns it. */
function exit(
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

export interface Opening<S extends CompositionState> {
  /** The stage id (default 'enter'; a Parallel opens with its 'fork'). */
  stageId?: string;
  /** How many members the composition has (composition.enter's childCount). */
  childCount: number;
  /** What the composition sets up on a first opening (not on a replay after a resume). */
  opened?: (scope: CompositionScope<S>) => void;
}

/** The opening stage every composition starts with: enter(), then its own set-up. */
export function openingStage<S extends CompositionState>(member: MemberRef, opening: Opening<S>) {
  return stage(member, opening.stageId ?? 'enter', (scope: CompositionScope<S>) => {
    if (enter(scope, member, opening.childCount)) opening.opened?.(scope);
  });
}

/** How a composition closes: its answer, and its status and stop reason when not plain 'ok'. */
export interface Closing {
  answer: string;
  /** Where the answer came from: a record key of the visit (a member's answer key, `currentFrom`) or an origin. */
  answerFrom: string | MessageOrigin;
  status?: ExitStatus;
  stopReason?: string;
}

/** The closing stage every composition ends with: exit() with what `close` decides (sync or async). */
export function closingStage<S extends CompositionState>(
  member: MemberRef,
  options: { stageId?: string; close: (scope: CompositionScope<S>) => Closing | Promise<Closing> },
) {
  return stage(member, options.stageId ?? 'exit', (scope: CompositionScope<S>) => {
    const finish = ({ answer, answerFrom, status, stopReason }: Closing) => {
      recordAnswer(scope, answerFrom);
      return exit(scope, member, answer, status, stopReason);
    };
    const closing = options.close(scope);
    return closing instanceof Promise ? closing.then(finish) : finish(closing);
  });
}
