/**
 * An agent turn's record (state.ts's Turn) lives in the run's store, not in the footprintjs state.
 * footprintjs copies the whole flow state several times on every stage that writes and reads it
 * through its scope proxy; a turn's stages read and change a dozen keys per iteration, and every key
 * written there cost copies (bench/results/footprintjs-patch.md). As a plain object in the run's store the record
 * costs nothing between stages, a pause still saves it with the checkpoint (run/store.ts), and the
 * flow state keeps only what names the turn: its id, written once, on Context's first visit.
 */
import { currentHub, type RunStore } from '../run/index.js';
import type { Turn } from './state.js';
import type { AgentScope } from './stages/scope.js';

/** Keeps a new turn's record in the run's store and its id in the flow state; returns the record. */
export function openTurn(scope: AgentScope, turn: Turn): Turn {
  scope.turnId = turn.turnId;
  return runStore(scope).keep(turnRecordKey(turn.turnId), turn);
}

/** The record of the turn this stage belongs to (undefined before Context opened it). */
export function turnOf(scope: AgentScope): Turn;
export function turnOf(scope: AgentScope, opened: 'if-open'): Turn | undefined;
export function turnOf(scope: AgentScope, opened?: 'if-open'): Turn | undefined {
  const turnId = scope.turnId;
  const turn = turnId === undefined ? undefined : runStore(scope).record<Turn>(turnRecordKey(turnId));
  if (!turn && opened === undefined) throw new Error(`agent turn ${String(turnId)} has no record in the run's store`);
  return turn;
}

/** The run's store, where a turn keeps its record and its conversation. */
export function runStore(scope: AgentScope): RunStore {
  const hub = currentHub(scope);
  if (!hub) throw new Error('an agent turn runs inside a runner run (Runner.run or resume), which provides its store');
  return hub.store;
}

/** Where a turn's record is kept in the run's store. */
export function turnRecordKey(turnId: string): string {
  return `turn:${turnId}`;
}
