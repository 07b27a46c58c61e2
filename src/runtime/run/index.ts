/** Run machinery shared by every runner: the base class, the event hub, streams, instruments, checkpoints, errors. */
export { Runner, RunCancelledError, type RunInput, type RunOptions, type ResumeOptions, type RunResult, type MountedMember, type RunnerProfile } from './runner.js';
export { RunHub, type HubListener } from './hub.js';
export { RunStream, StreamClosedError } from './runStream.js';
export type { RunStreamPart, StreamPartSource } from './streamParts.js';
export {
  registerInstrument,
  registeredInstruments,
  type RunInstrument,
  type RunSession,
  type RunStart,
} from './instruments.js';
export { outcomeLabel, type RunOutcome, type RunOutcomeLabel } from './outcome.js';
export { isPaused, CHECKPOINT_FORMAT, type Checkpoint, type Paused } from './checkpoint.js';
export { MemoryCheckpointStore, type CheckpointStore } from './checkpointStore.js';
export { RunFailedError, CheckpointError, ConfigError, describeError, errorType, type CheckpointRefusal } from './errors.js';
export { checkNumber, numberProblem, numberSetting, type NumberRule } from './settings.js';
export { currentHub, type EnvScope } from './context.js';
export { quietLogger, stage } from './chart.js';
export { newId } from './ids.js';
