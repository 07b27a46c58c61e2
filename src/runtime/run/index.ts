/** Run machinery shared by every runner: the base class, the event hub, instruments, checkpoints, errors. */
export { Runner, RunCancelledError, type RunInput, type RunOptions, type RunResult, type MountedMember, type RunnerProfile } from './runner.js';
export { RunHub, type HubListener } from './hub.js';
export {
  registerInstrument,
  registeredInstruments,
  type RunInstrument,
  type RunSession,
  type RunStart,
} from './instruments.js';
export { outcomeLabel, type RunOutcome, type RunOutcomeLabel } from './outcome.js';
export { isPaused, CHECKPOINT_FORMAT, type Checkpoint, type Paused } from './checkpoint.js';
export { RunFailedError, CheckpointError, ConfigError, describeError, errorType } from './errors.js';
export { currentHub } from './context.js';
export { quietLogger, stage } from './chart.js';
export { newId } from './ids.js';
