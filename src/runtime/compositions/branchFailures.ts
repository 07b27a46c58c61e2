/**
 * Why a Parallel needs help to see its branches' errors: footprintjs runs fork children with
 * Promise.allSettled and, when the fork has a next stage, drops the settled results, so a failed
 * branch simply never writes its output and the merge stage cannot tell why. The engine does report
 * every stage failure to flow recorders (onError, with the thrown value), so this instrument, which
 * every Parallel brings to the runs it takes part in, records them per branch for the merge stage.
 *
 * Branches are told apart by a token the Parallel passes in each branch's mapped input (visible at
 * onSubflowEntry): an error belongs to the innermost branch whose mount path encloses the failing
 * stage, so a failure a nested Parallel already absorbed is never charged to the outer branch.
 */
import type { FlowErrorEvent, FlowSubflowEvent } from 'footprintjs';
import { stageIds } from '../../events/index.js';
import { currentRun, type EnvScope, type RunEvents, type RunInstrument } from '../run/index.js';

const TOKEN_KEY = 'parallelBranch';
const RECORDER_ID = 'footprint-otel.parallel-branch-failures';
/** By the run's events: the one object both an instrument's start and a stage's run context hold. */
const failuresByRun = new WeakMap<RunEvents, Map<string, unknown>>();

export const branchFailureInstrument: RunInstrument = {
  id: RECORDER_ID,
  start({ executor, events }) {
    if (failuresByRun.has(events)) return undefined;
    const failures = new Map<string, unknown>();
    const tokenByMount = new Map<string, string>();
    failuresByRun.set(events, failures);
    executor.attachFlowRecorder({
      id: RECORDER_ID,
      onSubflowEntry(event: FlowSubflowEvent) {
        const token = event.mappedInput?.[TOKEN_KEY];
        if (typeof token === 'string' && event.subflowId) tokenByMount.set(event.subflowId, token);
      },
      onError(event: FlowErrorEvent) {
        const path = stageIds.subflowPathOf(event.traversalContext?.runtimeStageId ?? '');
        const token = stageIds.nearest(path, (key) => tokenByMount.get(key));
        if (token !== undefined && !failures.has(token)) failures.set(token, event.structuredError.raw);
      },
    });
    return undefined;
  },
};

/** The mapped input of a branch: its message (its conversation, where the message came from) plus the token its failures are filed under. */
export function branchInput({ message, token, thread, messageOrigin }: { message: string; token: string; thread: string | undefined; messageOrigin: string }): Record<string, unknown> {
  return thread === undefined ? { message, messageOrigin, [TOKEN_KEY]: token } : { message, thread, messageOrigin, [TOKEN_KEY]: token };
}

/** What the branch with this token threw in the run `scope` belongs to, if it failed. */
export function branchFailure(scope: EnvScope, token: string): unknown {
  const run = currentRun(scope);
  return run ? failuresByRun.get(run.events)?.get(token) : undefined;
}
