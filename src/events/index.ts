/** The typed event catalog: names, payload types, the envelope, the emit helper and listener sets. */
export * from './catalog.js';
export * from './envelope.js';
export { emit, EMIT_TARGET, EMITTING_STAGE, isFootprintEvent, type EmitScope, type TypedEventSink } from './emit.js';
export { ListenerSet } from './listeners.js';
export { catchUpWithWallClock, now } from './clock.js';
export * as stageIds from './stageIds.js';
export { handleEvent, type EventHandlers } from './handlers.js';
export { routeWithin } from './routes.js';
export { addModelCall, noModelCalls, picodollars, type ModelCallRecord, type ModelCallTotals } from './modelCalls.js';
export { CAPTURE_CONTENT_ENV, captureFromEnv, hasOwnText, markOwnText, ownTextOf } from './contentCapture.js';
export { exportedView, thrownType, WITHHELD_MESSAGE, type Exported, type ExportedEvent, type ExportedRecord, type OtherRecords } from './exportedView.js';
