/**
 * The pause checkpoint: plain JSON that a resumed run needs, in any process. It wraps footprintjs's
 * own checkpoint with the runner it belongs to, the run id (a resumed run keeps it), the question,
 * and whatever instruments carry across the pause (the OTel bridge stores a W3C traceparent).
 *
 * Each checkpoint has an id of its own (a checkpoint resumes at most once: checkpointStore.ts) and a
 * binding: a SHA-256 digest of that id, the run id, the runner's kind and id and its chart's
 * structure. A checkpoint edited to name another runner or run, to get a fresh id, or resumed on a
 * runner whose chart changed, no longer matches its binding and is refused. The digest is no
 * signature: whoever can write a checkpoint can also recompute it (docs/checkpoints.md).
 */
import { createHash } from 'node:crypto';
import type { FlowChart, FlowchartCheckpoint } from 'footprintjs';
import type { RunnerKind } from '../../events/index.js';
import { CheckpointError } from './errors.js';
import { newId } from './ids.js';
import { savedStoreProblem, type SavedStore } from './store.js';

export const CHECKPOINT_FORMAT = 'footprint-otel/checkpoint@4';

/** What a checkpoint is bound to: the runner that paused and its chart. */
export interface CheckpointOwner {
  kind: RunnerKind;
  id: string;
  chart(): FlowChart;
}

export interface Checkpoint {
  format: typeof CHECKPOINT_FORMAT;
  /** Unique per pause: the key a resume claims (a checkpoint resumes at most once). */
  id: string;
  /** SHA-256 over id, run id, runner and chart structure (hex); checked on resume. */
  binding: string;
  runner: { kind: RunnerKind; id: string };
  runId: string;
  question: string;
  pausedAt: number;
  carry: Record<string, unknown>;
  /** The run's store (run/store.ts): data kept out of the flow state, agent conversations and turn records. */
  store: SavedStore;
  flow: FlowchartCheckpoint;
}

export interface Paused {
  paused: true;
  checkpoint: Checkpoint;
  question: string;
}

/**
 * Whether a run paused: for a RunResult, whether it holds `paused` (stopReason 'paused'); for
 * anything else, whether it is the Paused record itself.
 */
export function isPaused<R extends { readonly paused?: Paused }>(value: R): value is R & { readonly paused: Paused };
export function isPaused(value: unknown): value is Paused;
export function isPaused(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const paused = (value as { paused?: unknown }).paused;
  return paused === true || (typeof paused === 'object' && paused !== null && (paused as Paused).paused === true);
}

export function makeCheckpoint(
  runner: CheckpointOwner,
  runId: string,
  flow: FlowchartCheckpoint,
  carry: Record<string, unknown>,
  store: SavedStore,
): Checkpoint {
  const data = flow.pauseData as { reason?: unknown } | undefined;
  const question = typeof data?.reason === 'string' ? data.reason : '';
  const id = newId('checkpoint');
  // A JSON round trip proves the checkpoint is plain data before anyone stores it.
  return JSON.parse(
    JSON.stringify({
      format: CHECKPOINT_FORMAT,
      id,
      binding: bindingOf(id, runId, runner),
      runner: { kind: runner.kind, id: runner.id },
      runId,
      question,
      pausedAt: flow.pausedAt,
      carry,
      store,
      flow,
    }),
  ) as Checkpoint;
}

/** The checkpoint in `value` (an object or its JSON), refused unless it is whole and bound to `runner`. */
export function readCheckpoint(value: unknown, runner: CheckpointOwner): Checkpoint {
  const parsed = typeof value === 'string' ? safeParse(value) : value;
  if (typeof parsed !== 'object' || parsed === null || (parsed as Checkpoint).format !== CHECKPOINT_FORMAT) {
    const format = typeof parsed === 'object' && parsed !== null ? (parsed as { format?: unknown }).format : undefined;
    const earlier = typeof format === 'string' && format.startsWith('footprint-otel/checkpoint@') ? `, not ${format}: a checkpoint of an earlier version cannot be resumed` : '';
    throw new CheckpointError(`not a footprint-otel checkpoint (expected format ${CHECKPOINT_FORMAT}${earlier})`);
  }
  const checkpoint = parsed as Checkpoint;
  const owner = checkpoint.runner as Partial<Checkpoint['runner']> | undefined;
  if (typeof owner !== 'object' || owner === null || owner.kind !== runner.kind || owner.id !== runner.id) {
    throw new CheckpointError(
      `checkpoint belongs to ${String(owner?.kind)} "${String(owner?.id)}", not ${runner.kind} "${runner.id}"`,
      'other_runner',
    );
  }
  if (typeof checkpoint.id !== 'string' || typeof checkpoint.runId !== 'string' || typeof checkpoint.flow !== 'object' || checkpoint.flow === null) {
    throw new CheckpointError('checkpoint is missing its id, run id or flow state');
  }
  if (!isSavedStore(checkpoint.store)) throw new CheckpointError('checkpoint is missing its run store');
  if (checkpoint.binding !== bindingOf(checkpoint.id, checkpoint.runId, runner)) {
    throw new CheckpointError(
      `checkpoint ${checkpoint.id} does not match ${runner.kind} "${runner.id}": it was altered (its id, run id or runner), or this runner's chart is not the one that paused`,
      'altered',
    );
  }
  // footprintjs's subflowPath is the stack of subflows the run paused in, each by its key ('gate',
  // 'gate/approve'): the innermost is where the paused stage runs ('' the top-level chart);
  // pausedStageId is that stage's id, prefixed with its subflow's key ('gate/approve/tool-calls').
  const { subflowPath: pausedIn = [], pausedStageId } = checkpoint.flow as { subflowPath?: unknown; pausedStageId?: unknown };
  if (!Array.isArray(pausedIn) || !pausedIn.every((key) => typeof key === 'string') || typeof pausedStageId !== 'string') {
    throw new CheckpointError('checkpoint flow state names no stage and subflow path it paused in');
  }
  const missing = savedStoreProblem(checkpoint.store, { place: (pausedIn.at(-1) as string | undefined) ?? '', stageId: pausedStageId });
  if (missing !== undefined) throw new CheckpointError(`checkpoint run store ${missing}`);
  return checkpoint;
}

function isSavedStore(value: unknown): value is SavedStore {
  if (typeof value !== 'object' || value === null) return false;
  const { lists, records } = value as Partial<SavedStore>;
  const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;
  return isObject(lists) && Object.values(lists).every(Array.isArray) && isObject(records) && Object.values(records).every(isObject);
}

/** The digest of a runner's chart structure, computed once per chart. */
const chartDigests = new WeakMap<FlowChart, string>();

function bindingOf(id: string, runId: string, runner: CheckpointOwner): string {
  const chart = runner.chart();
  let structure = chartDigests.get(chart);
  if (structure === undefined) {
    structure = sha256(JSON.stringify(chart.buildTimeStructure));
    chartDigests.set(chart, structure);
  }
  return sha256(JSON.stringify([id, runId, runner.kind, runner.id, structure]));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(`checkpoint is not valid JSON: ${(error as Error).message}`);
  }
}
