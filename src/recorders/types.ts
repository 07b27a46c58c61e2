/**
 * The skill-path recorder's public shapes: its options, and what it keeps per run (hops, rejections
 * and trips, each the event payload plus the runtime stage id it happened at). */
import type { EventPayloads } from '../events/index.js';

export interface SkillPathRecorderOptions {
  /** Record only this agent's turns (by agent id); without it, every skill-graph turn of the run. */
  agentId?: string;
}

export type RecordedHop = EventPayloads['footprint.skill.hop'] & { runtimeStageId: string };
export type RecordedRejection = EventPayloads['footprint.skill.rejected'] & { runtimeStageId: string };
export type RecordedTrip = EventPayloads['footprint.loop_guard.trip'] & { runtimeStageId: string };

/** Everything recorded for one run, across all the turns it contains. */
export interface SkillPathRun {
  runId: string;
  hops: RecordedHop[];
  rejections: RecordedRejection[];
  trips: RecordedTrip[];
}
