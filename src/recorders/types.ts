/**
 * The route recorder's public shapes: its options, and what it keeps per run (hops, rejections and
 * trips, each the event payload plus the runtime stage id it happened at).
 */
import type { EventPayloads } from '../events/index.js';

export interface RouteRecorderOptions {
  /** Record only this agent's turns (by agent id); without it, every skill-graph turn of the run. */
  agentId?: string;
}

export type RouteHop = EventPayloads['footprint.route.hop'] & { runtimeStageId: string };
export type RouteRejection = EventPayloads['footprint.skill.rejected'] & { runtimeStageId: string };
export type RouteTrip = EventPayloads['footprint.route.trip'] & { runtimeStageId: string };

/** Everything recorded for one run, across all the turns it contains. */
export interface RouteRun {
  runId: string;
  hops: RouteHop[];
  rejections: RouteRejection[];
  trips: RouteTrip[];
}
