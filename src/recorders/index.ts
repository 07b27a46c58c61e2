/** Derived signals over the runtime's events: the skill-path recorder (an agent's skill path, read back). */
export { skillPathRecorder, type SkillPathRecorder } from './skillPathRecorder.js';
export type {
  SkillPathRecorderOptions,
  RecordedHop,
  RecordedRejection,
  RecordedTrip,
  SkillPathRun,
} from './types.js';
