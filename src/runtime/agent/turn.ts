/**
 * An agent turn's record (state.ts's Turn) lives in the run's store, not in the footprintjs state.
 * footprintjs copies the whole flow state several times on every stage that writes and reads it
 * through its scope proxy; a turn's stages read and change a dozen keys per iteration, and every key
 * written there cost copies (bench/results/footprintjs-patch.md). As a plain object in the run's store the record
 * costs nothing between stages, and a pause still saves it with the checkpoint (run/store.ts).
 *
 * The record is kept under the agent's place, the key of the subflow its chart runs in ('turn:/' for
 * a top-level agent, 'turn:/desk/billing' for a member): each stage finds its turn from where it runs
 * (run/context.ts stageSubflowKey), so the flow state holds nothing of the turn, and no stage writes
 * there (one write costs footprintjs a transaction buffer, a commit and its copies at every turn:
 * docs/benchmarks.md). A place runs one turn at a time: a Loop's next pass or a member's next
 * hand-off opens a new turn there, whose record replaces the finished one (the conversation lists
 * stay, under each turn's own historyKey). A checkpoint whose store lacks the paused agent's turn,
 * or holds one that is not whole, is refused as malformed when it is read, before it is claimed.
 */
import { stageIds } from '../../events/index.js';
import { currentRun, defineRecordKind, stageSubflowKey, type RunStore } from '../run/index.js';
import { TOOL_CALLS } from './stages/nextStep.js';
import type { Turn } from './state.js';
import type { StageScope } from './stages/scope.js';

/** Keeps a new turn's record at the place of the stage of `scope`, in place of the one before; returns it. */
export function openTurn(scope: StageScope, turn: Turn): Turn {
  return runStore(scope).keep(turnKey(placeOf(scope)), turn);
}

/** The record of the turn the stage of `scope` belongs to (Context opened it at the stage's place). */
export function turnOf(scope: StageScope): Turn {
  const place = placeOf(scope);
  const turn = runStore(scope).record<Turn>(turnKey(place));
  if (!turn) throw new Error(`the agent at "/${place}" has no open turn in the run's store`);
  return turn;
}

/** The turn `turnId` of the top-level agent, when `store` holds it (a finished run's, for its runner). */
export function topTurn(store: RunStore, turnId: string): Turn | undefined {
  const turn = store.record<Turn>(turnKey(''));
  return turn?.turnId === turnId ? turn : undefined;
}

/** The run's store, where a turn keeps its record and its conversation. */
export function runStore(scope: StageScope): RunStore {
  const run = currentRun(scope);
  if (!run) throw new Error('an agent turn runs inside a runner run (Runner.run or resume), which provides its store');
  return run.store;
}

function placeOf(scope: StageScope): string {
  const place = stageSubflowKey(scope);
  if (place === undefined) throw new Error('an agent turn runs inside a runner run (Runner.run or resume), which gives each stage its place');
  return place;
}

const TURN_PREFIX = 'turn:/';

/** Where the turn open at `place` is kept in the run's store. */
function turnKey(place: string): string {
  return `${TURN_PREFIX}${place}`;
}

/** An agent pauses in its ToolCalls stage only (a tool's ctx.pause): a run paused there resumes with that agent's turn. */
function pausedTurnKey(place: string, stageId: string): string | undefined {
  return stageIds.isStage(stageId, TOOL_CALLS) ? turnKey(place) : undefined;
}

defineRecordKind({ prefix: TURN_PREFIX, pausedRecord: pausedTurnKey, problem: turnProblem });

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
