/**
 * How many bytes footprintjs copies in one agent turn. The engine copies state with the global
 * `structuredClone` (the transaction buffer's base and working copy on a stage's first write, the
 * committed patch, the new shared state on every commit), so for the measured turns that global is
 * wrapped: each call adds the size of the value in the structured-clone wire format (`v8.serialize`,
 * the serializer `structuredClone` itself uses) to the stage that was running when it happened.
 * Nothing in this project calls `structuredClone`, so every byte counted is the engine's.
 */
import { serialize } from 'node:v8';
import { registerInstrument } from '../src/index.js';

export interface CloneBytes {
  /** Per turn: structuredClone calls and bytes, and how many stage executions cloned anything. */
  calls: number;
  bytes: number;
  cloningStages: number;
  stages: number;
  /** Per turn, by stage id (summed over the loop's iterations), largest first. */
  byStage: { stage: string; calls: number; bytes: number }[];
}

const OUTSIDE = '(outside stages)';

export async function measureCloneBytes(options: { turn: () => Promise<unknown>; turns: number }): Promise<CloneBytes> {
  let current = OUTSIDE;
  let stages = 0;
  const cloning = new Set<number>();
  const byStage = new Map<string, { calls: number; bytes: number }>();
  const stop = watchStages((stageId) => {
    current = stageId;
    stages++;
  });
  const original = globalThis.structuredClone;
  globalThis.structuredClone = ((value: unknown, transfer?: StructuredSerializeOptions) => {
    const entry = byStage.get(current) ?? { calls: 0, bytes: 0 };
    entry.calls++;
    entry.bytes += serialize(value).byteLength;
    byStage.set(current, entry);
    if (current !== OUTSIDE) cloning.add(stages);
    return original(value, transfer);
  }) as typeof structuredClone;
  try {
    for (let i = 0; i < options.turns; i++) {
      current = OUTSIDE;
      await options.turn();
    }
  } finally {
    globalThis.structuredClone = original;
    stop();
  }
  const perTurn = (n: number) => Math.round(n / options.turns);
  const rows = [...byStage].map(([stage, e]) => ({ stage, calls: perTurn(e.calls), bytes: perTurn(e.bytes) }));
  return {
    calls: rows.reduce((sum, r) => sum + r.calls, 0),
    bytes: rows.reduce((sum, r) => sum + r.bytes, 0),
    cloningStages: perTurn(cloning.size),
    stages: perTurn(stages),
    byStage: rows.sort((a, b) => b.bytes - a.bytes),
  };
}

/** An instrument that reports each stage start (by its builder id) to `onStage`. */
function watchStages(onStage: (stageId: string) => void): () => void {
  return registerInstrument({
    id: 'bench.clone-bytes',
    start(run) {
      run.executor.attachScopeRecorder({ id: 'bench.clone-bytes', onStageStart: (e) => onStage(e.stageId) });
      return {};
    },
  });
}
