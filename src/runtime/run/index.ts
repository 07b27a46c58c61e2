/**
 * run/ — machinery shared by every runner: the base class, the event hub, streams, instruments,
 * checkpoints, settings checks, errors and the fixed error.type values. Depends on events/ only;
 * the bottom of the runtime, imported by every other runtime folder but cost/.
 */
export { Runner, RunCancelledError, type RunInput, type RunOptions, type ResumeOptions, type MountedMember } from './runner.js';
export type { RunResult, StopReason } from './result.js';
export { messageText, toolCallOf, type ImagePart, type LLMMessage, type Message, type MessagePart, type TextPart, type ToolCall } from './messages.js';
export {
  ConversationConflictError,
  ConversationStoreError,
  MemoryConversationStore,
  type ConversationEntry,
  type ConversationStore,
  type ConversationStoreErrorCode,
  type StoredConversation,
  wellFormedProducers,
} from './conversationStore.js';
export {
  appendFrom,
  appendWithOrigins,
  handoffFrom,
  keepOrigin,
  originAt,
  originKey,
  originsOf,
  whileStartingIn,
  type MessageOrigin,
} from './lineage.js';
export { canonicalMessage, ConversationParts, IMAGE_TOKEN_ESTIMATE, measure, slotPart } from './inputParts.js';
export { FINGERPRINT_KEY_ENV, setFingerprintKey } from './fingerprint.js';
export type { ChartInput } from './runInput.js';
export { EventHub } from './hub.js';
export type { HubListener, OtherEmitListener, RunEvents, StageExecution, StageListener } from './runEvents.js';
export { subscribeStages } from './stageReports.js';
export { RUNNER_FACTS, type RunnerFacts, type RunnerProfile, type RunTree, type RunTreeNode } from './runTree.js';
export { RunStream, StreamClosedError, type StreamSink } from './runStream.js';
export { defineRecordKind, type RecordKind, type RunStore } from './store.js';
export type { RunStreamPart, StreamPartSource } from './streamParts.js';
export {
  registerInstrument,
  registeredInstruments,
  type RestoredEntry,
  type RunInstrument,
  type RunSession,
  type RunStart,
} from './instruments.js';
export { outcomeLabel, type RunOutcome, type RunOutcomeLabel } from './outcome.js';
export { isPaused, readCheckpoint, CHECKPOINT_FORMAT, type Checkpoint, type Paused } from './checkpoint.js';
export { MemoryCheckpointStore, type CheckpointStore } from './checkpointStore.js';
export { RunFailedError, CheckpointError, ConfigError, describeError, errorClass, errorType, failureOrigin, type CheckpointRefusal } from './errors.js';
export { FIXED_ERROR_TYPES } from './errorTypes.js';
export { checkNumber, numberProblem, numberSetting, optionalNumber, RULES, type NumberRule } from './settings.js';
export { currentRun, OnceEnvScope, stageInput, stageSubflowKey, type EnvScope, type RunContext } from './context.js';
export { quietLogger, stage, runtimeChart } from './chart.js';
export { newId } from './ids.js';
export { safeStringify } from './safeJson.js';
export { copyArgs, UNCOPYABLE_ARGS } from './copyArgs.js';
export { parseModelJson } from './modelJson.js';
export { untilAborted } from './untilAborted.js';
export { isThenable } from './thenable.js';
export { optionNames, refuseUnknownOptions } from './knownOptions.js';
