/**
 * The base of every composition: a Runner whose resume() (and resumeStream()) first checks that
 * footprintjs 9.24 can resume the pause correctly, and refuses (CheckpointError) rather than continue wrongly.
 *
 * What the engine does on resume: it re-enters the run through the top-level mount on the paused
 * path and then follows that mount's `next`; every composition in between is replayed from its first
 * stage with its saved state, and the paused member continues from its paused stage. So:
 *   - the top-level composition must mount the paused member linearly and never re-enter it: only a
 *     Sequence does (a Conditional's or swarm's branch mount and a Parallel's fork child have no
 *     `next`, so their closing stages would be skipped; a Loop re-enters its body with stale state);
 *   - a composition in between must replay without redoing work: only a Conditional does (it takes
 *     its recorded branch again, unannounced); a nested Sequence would re-run its earlier steps.
 * A pause in one of the other shapes can be made resumable by nesting it differently, e.g. a
 * top-level Conditional becomes resumable as the single step of a Sequence.
 */
import { stageIds } from '../../events/index.js';
import { CheckpointError, readCheckpoint, Runner, type Checkpoint } from '../run/index.js';

export interface CompositionOptions {
  id?: string;
  name?: string;
}

export abstract class Composition extends Runner {
  protected override resumable(checkpoint: unknown): Checkpoint {
    const saved = readCheckpoint(checkpoint, this);
    checkResumable(this, saved.flow.subflowPath);
    return saved;
  }
}

function checkResumable(top: Runner, subflowPath: readonly string[]): void {
  const mountPath = stageIds.pathOfKey(subflowPath[subflowPath.length - 1] ?? '');
  let runner = top;
  for (const [depth, segment] of mountPath.entries()) {
    const replayable = depth === 0 ? runner.kind === 'sequence' : runner.kind === 'conditional';
    if (!replayable) {
      throw new CheckpointError(
        `cannot resume a pause at "${stageIds.pathKey(mountPath)}": footprintjs cannot continue a run through ` +
          `${runner.kind} "${runner.id}" from inside its members ${depth === 0 ? 'at the top level' : 'when it is nested'}; ` +
          'mount the pausing member in a Sequence step (optionally through Conditionals) instead',
        'not_resumable',
      );
    }
    const next = runner.members().find((member) => member.mountId === segment)?.runner;
    if (!next) return;
    runner = next;
  }
}
