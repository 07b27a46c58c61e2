/**
 * The pause checkpoint: plain JSON that a resumed run needs, in any process. It wraps footprintjs's
 * own checkpoint with the runner it belongs to, the run id (a resumed run keeps it), the question,
 * and whatever instruments carry across the pause (the OTel bridge stores a W3C traceparent).
 */
import type { FlowchartCheckpoint } from 'footprintjs';
import type { RunnerKind } from '../../events/index.js';
import { CheckpointError } from './errors.js';
import type { SavedStore } from './store.js';

export const CHECKPOINT_FORMAT = 'footprint-otel/checkpoint@1';

export interface Checkpoint {
  format: typeof CHECKPOINT_FORMAT;
  runner: { kind: RunnerKind; id: string };
  runId: string;
  question: string;
  pausedAt: number;
  carry: Record<string, unknown>;
  /** The run's store (run/store.ts): data kept out of the flow state, e.g. agent conversations. */
  store: SavedStore;
  flow: FlowchartCheckpoint;
}

export interface Paused {
  paused: true;
  checkpoint: Checkpoint;
  question: string;
}

export function isPaused(value: unknown): value is Paused {
  return typeof value === 'object' && value !== null && (value as Paused).paused === true;
}

export function makeCheckpoint(
  runner: { kind: RunnerKind; id: string },
  runId: string,
  flow: FlowchartCheckpoint,
  carry: Record<string, unknown>,
  store: SavedStore,
): Checkpoint {
  const data = flow.pauseData as { reason?: unknown } | undefined;
  const question = typeof data?.reason === 'string' ? data.reason : '';
  // A JSON round trip proves the checkpoint is plain data before anyone stores it.
  return JSON.parse(
    JSON.stringify({
      format: CHECKPOINT_FORMAT,
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

export function readCheckpoint(value: unknown, runner: { kind: RunnerKind; id: string }): Checkpoint {
  const parsed = typeof value === 'string' ? safeParse(value) : value;
  if (typeof parsed !== 'object' || parsed === null || (parsed as Checkpoint).format !== CHECKPOINT_FORMAT) {
    throw new CheckpointError(`not a footprint-otel checkpoint (expected format ${CHECKPOINT_FORMAT})`);
  }
  const checkpoint = parsed as Checkpoint;
  if (checkpoint.runner.kind !== runner.kind || checkpoint.runner.id !== runner.id) {
    throw new CheckpointError(
      `checkpoint belongs to ${checkpoint.runner.kind} "${checkpoint.runner.id}", not ${runner.kind} "${runner.id}"`,
    );
  }
  if (typeof checkpoint.runId !== 'string' || typeof checkpoint.flow !== 'object' || checkpoint.flow === null) {
    throw new CheckpointError('checkpoint is missing its run id or flow state');
  }
  if (typeof checkpoint.store !== 'object' || checkpoint.store === null || Object.values(checkpoint.store).some((v) => !Array.isArray(v))) {
    throw new CheckpointError('checkpoint is missing its run store');
  }
  return checkpoint;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(`checkpoint is not valid JSON: ${(error as Error).message}`);
  }
}
