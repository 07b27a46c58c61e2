/**
 * An agent turn's record (state.ts's Turn) lives in the run's store, not in the footprintjs state.
 * footprintjs copies the whole flow state several times on every stage that writes and reads it
 * through its scope proxy; a turn's stages read and change a dozen keys per iteration, and every key
 * written there cost copies (bench/results/footprintjs-patch.md). As a plain object in the run's store the record
 * costs nothing between stages, a pause still saves it with the checkpoint (run/store.ts), and the
 * flow state keeps only what names the turn: its id, written once, when Context opens the turn. A
 * checkpoint whose store lacks a turn its flow state names, or holds one that is not whole, is refused
 * as malformed when it is read, before it is claimed (TURN_RECORDS).
 */
import { currentRun, defineRecordKind, type RunStore } from '../run/index.js';
import type { Turn } from './state.js';
import type { AgentScope, StageScope } from './stages/scope.js';

/** Keeps a new turn's record in the run's store and its id in the flow state; returns the record. */
export function openTurn(scope: AgentScope, stage: StageScope, turn: Turn): Turn {
  scope.turnId = turn.turnId;
  return runStore(stage).keep(turnRecordKey(turn.turnId), turn);
}

/**
 * The record of the turn this stage belongs to (Context opened it): `scope` names the turn, `stage`
 * (the same scope, its env read once) has the run's store.
 */
export function turnOf(scope: AgentScope, stage: StageScope): Turn {
  const turnId = scope.turnId;
  const turn = turnId === undefined ? undefined : runStore(stage).record<Turn>(turnRecordKey(turnId));
  if (!turn) throw new Error(`agent turn ${String(turnId)} has no record in the run's store`);
  return turn;
}

/** The run's store, where a turn keeps its record and its conversation. */
export function runStore(scope: StageScope): RunStore {
  const run = currentRun(scope);
  if (!run) throw new Error('an agent turn runs inside a runner run (Runner.run or resume), which provides its store');
  return run.store;
}

const TURN_PREFIX = 'turn:';

/** The last turn's id and record key: each of a turn's stages looks its record up under the same key. */
let lastTurnId = '';
let lastTurnKey = '';

/** Where a turn's record is kept in the run's store. */
export function turnRecordKey(turnId: string): string {
  if (turnId !== lastTurnId) {
    lastTurnKey = `${TURN_PREFIX}${turnId}`;
    lastTurnId = turnId;
  }
  return lastTurnKey;
}

defineRecordKind({ prefix: TURN_PREFIX, flowKey: 'turnId', problem: turnProblem });

/** What a resumed turn's stages would trip over in a saved record (they read these without checking). */
function turnProblem(record: unknown, store: { lists: Record<string, unknown[]> }): string | undefined {
  if (typeof record !== 'object' || record === null) return 'it is not an object';
  const turn = record as Partial<Record<keyof Turn, unknown>>;
  if (typeof turn.turnId !== 'string') return 'turnId is not a string';
  if (typeof turn.iteration !== 'number' || !Number.isInteger(turn.iteration) || turn.iteration < 0) return 'iteration is not a whole number';
  if (typeof turn.historyKey !== 'string' || !Object.hasOwn(store.lists, turn.historyKey)) return `its conversation "${String(turn.historyKey)}" is not in the store`;
  const request = turn.request as { tools?: unknown } | null | undefined;
  if (typeof request !== 'object' || request === null || !Array.isArray(request.tools)) return 'request is not an assembled request';
  if (typeof turn.doneTools !== 'object' || turn.doneTools === null) return 'doneTools is not an object';
  if (!isTotals(turn.totals)) return 'totals is not an object of counts';
  return undefined;
}

function isTotals(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { llmCalls, costUsd, tokens } = value as { llmCalls?: unknown; costUsd?: unknown; tokens?: { input?: unknown; output?: unknown } | null };
  return typeof llmCalls === 'number' && typeof costUsd === 'number' && typeof tokens?.input === 'number' && typeof tokens.output === 'number';
}
