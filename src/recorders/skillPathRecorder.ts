/**
 * skillPathRecorder(): records the skill path an agent turn took (hops, path, rejections, and the
 * loop-guard trips the agent reported) so an app can read it back after a run. The guard itself is
 * the agent's (skillGraph options pingPongWindow, maxRejectedRetries, onTrip); this recorder only
 * listens.
 *
 * It is a run instrument: pass one to an agent as skillGraph options.skillPathRecorder, or register one
 * for every run. State is per run id, so concurrent runs never mix; getters read the run given by id,
 * or else the latest run that recorded a hop. A paused run carries its record in the checkpoint, so a
 * resumed run (in any process) goes on recording where it stopped.
 */
import { handleEvent, type EventHandlers } from '../events/index.js';
import type { RunInstrument, RunSession, RunStart } from '../runtime/index.js';
import { RunBook } from './runBook.js';
import type { RecordedHop, RecordedRejection, RecordedTrip, SkillPathRecorderOptions, SkillPathRun } from './types.js';

export interface SkillPathRecorder extends RunInstrument {
  /** Every cursor hop (entry, edge, model pick, stay), in order. */
  getHops(runId?: string): RecordedHop[];
  /** The skills the cursor entered, in order (stays left out). */
  getPath(runId?: string): string[];
  getTrips(runId?: string): RecordedTrip[];
  getRejections(runId?: string): RecordedRejection[];
}

export function skillPathRecorder(options: SkillPathRecorderOptions = {}): SkillPathRecorder {
  const agentId = options.agentId;
  // The id keys what a paused run carries.
  const id = agentId === undefined ? 'footprint-otel.skill-path' : `footprint-otel.skill-path:${agentId}`;
  const book = new RunBook();

  const start = ({ runId, events, resumed }: RunStart): RunSession => {
    let run = restore(resumed?.carry[id], runId);
    if (run) book.put(run);
    const open = (): SkillPathRun => {
      if (!run) {
        run = { runId, hops: [], rejections: [], trips: [] };
        book.put(run);
      }
      return run;
    };
    const mine = (payload: { agentId: string }) => agentId === undefined || payload.agentId === agentId;

    // Only the three kinds it records are looked at: every other event of the run passes untouched.
    // The payload spreads last (no key of it is runtimeStageId): on Node 20's V8 a key after a spread is a slow runtime call.
    const handlers: EventHandlers = {
      'footprint.skill.hop': ({ payload, meta }) => {
        if (mine(payload)) open().hops.push({ runtimeStageId: meta.runtimeStageId, ...payload });
      },
      'footprint.skill.rejected': ({ payload, meta }) => {
        if (mine(payload)) open().rejections.push({ runtimeStageId: meta.runtimeStageId, ...payload });
      },
      'footprint.loop_guard.trip': ({ payload, meta }) => {
        if (mine(payload)) open().trips.push({ runtimeStageId: meta.runtimeStageId, ...payload });
      },
    };
    const unsubscribe = events.subscribe((event) => {
      handleEvent(handlers, event);
    });
    return {
      paused: () => (run ? { [id]: run } : undefined),
      finished: unsubscribe,
    };
  };

  return {
    id,
    start,
    getHops: (runId) => [...(book.get(runId)?.hops ?? [])],
    getPath: (runId) => (book.get(runId)?.hops ?? []).filter((hop) => hop.cause !== 'stay').map((hop) => hop.to),
    getTrips: (runId) => [...(book.get(runId)?.trips ?? [])],
    getRejections: (runId) => [...(book.get(runId)?.rejections ?? [])],
  };
}

/** The carried record of a resumed run, when it is ours and well-formed. */
function restore(carried: unknown, runId: string): SkillPathRun | undefined {
  const run = carried as Partial<SkillPathRun> | undefined;
  const wellFormed = run?.runId === runId && Array.isArray(run.hops) && Array.isArray(run.rejections) && Array.isArray(run.trips);
  return wellFormed ? (run as SkillPathRun) : undefined;
}
