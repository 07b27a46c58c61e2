/**
 * Which checkpoints were already resumed. A checkpoint resumes at most once: the runner claims its
 * id before it continues the run, and a second claim of the same id is refused. That is what keeps a
 * retried request, a double click or a replayed message from running the work after the pause (a
 * refund) again. The in-memory store guards one process; runs resumed from several processes share a
 * store the application implements over its database (docs/checkpoints.md shows one).
 */

/** Where resumed checkpoint ids are kept. Implement it over a shared database to guard many processes. */
export interface CheckpointStore {
  /**
   * Claims `id` for one resume: true the first time an id is claimed, false every time after, and
   * atomically so, in every process that shares the store (of two concurrent claims exactly one gets
   * true: an insert that fails on a duplicate key, Redis `SET id 1 NX`). A claim that throws or
   * rejects refuses the resume (CheckpointError 'store_failed'): the work after the pause does not run.
   */
  claim(id: string, checkpoint: { runId: string; runner: { kind: string; id: string } }): boolean | Promise<boolean>;
}

/**
 * The default store: the ids claimed in this process, kept for its lifetime (one short string per
 * resumed checkpoint). It cannot see resumes in other processes.
 */
export class MemoryCheckpointStore implements CheckpointStore {
  private readonly claimed = new Set<string>();

  claim(id: string): boolean {
    if (this.claimed.has(id)) return false;
    this.claimed.add(id);
    return true;
  }
}

/** The store resume() uses when its options name none: one per process. */
export const processCheckpointStore: CheckpointStore = new MemoryCheckpointStore();
