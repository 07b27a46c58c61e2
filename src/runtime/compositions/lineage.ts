/**
 * Where the messages a composition hands its members came from (issue #36). A composition passes
 * strings between members (its flow state's `current`), so beside `current` it keeps `currentFrom`:
 * the key of the run-store record saying where that text came from (run/lineage.ts). It opens with
 * its own input's origin, and each member records its answer's origin under a key of the
 * composition's visit (answerKey), which becomes `currentFrom` when the answer becomes `current`.
 * A member is handed `currentFrom` as its ChartInput.messageOrigin, and its answer key as answerTo.
 */
import type { TypedScope } from 'footprintjs';
import { currentRun, stageInput, keepOrigin, newId, originAt, originKey, type ChartInput, type MessageOrigin } from '../run/index.js';

export interface LineageState {
  /** Unique per visit of the composition: its origin records are kept under keys made of it. */
  lineage: string;
  /** The record key of where `current` came from. */
  currentFrom: string;
}

/** Opens the visit's lineage: where the composition's input came from, recorded for its members. */
export function openLineage(scope: TypedScope<LineageState>): void {
  const run = currentRun(scope);
  scope.lineage = newId('lineage');
  const key = inputKey(scope);
  scope.currentFrom = key;
  if (!run) return;
  const args = stageInput<Record<keyof ChartInput, unknown>>(scope);
  const given: MessageOrigin = originAt(run.store, args.messageOrigin) ?? { origin: 'run_input', producer: { kind: 'run', id: run.runId } };
  keepOrigin(run.store, key, given);
}

/** Where the composition recorded its input's origin, in this visit. */
export function inputKey(state: LineageState): string {
  return originKey(state.lineage, 'input');
}

/** Where the member mounted at `mountId` records its answer's origin, in this visit. */
export function answerKey(state: LineageState, mountId: string): string {
  return originKey(state.lineage, mountId);
}

/** Records where the composition's answer came from (a record key of its visit, or an origin) for whoever is handed it. */
export function recordAnswer(scope: TypedScope<LineageState>, from: string | MessageOrigin): void {
  const run = currentRun(scope);
  const answerTo = stageInput<Record<keyof ChartInput, unknown>>(scope).answerTo;
  if (!run || typeof answerTo !== 'string') return;
  const origin = typeof from === 'string' ? originAt(run.store, from) : from;
  if (origin) keepOrigin(run.store, answerTo, origin);
}
