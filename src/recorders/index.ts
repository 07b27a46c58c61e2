/** Derived signals over the runtime's events: the skill-path recorder (an agent's skill path, read back). */
export { skillPathRecorder, routeRecorder, type SkillPathRecorder, type RouteRecorder } from './skillPathRecorder.js';
export type {
  SkillPathRecorderOptions,
  RecordedHop,
  RecordedRejection,
  RecordedTrip,
  SkillPathRun,
  RouteRecorderOptions,
  RouteHop,
  RouteRejection,
  RouteTrip,
} from './types.js';
