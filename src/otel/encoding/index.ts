/**
 * encoding/ — how values become OpenTelemetry data: the names and attribute keys of the conventions
 * (semconv.ts) and which of them a mode emits (semconvMode.ts), bounded attribute values (bounded.ts), GenAI message JSON and the content-capture
 * switch (content.ts), a typed event as span-event attributes (spanEventAttributes.ts), decision
 * evidence (evidence.ts), a failed span (failure.ts), W3C traceparent (traceparent.ts) and a clock time
 * as the SDK stores it (spanTime.ts).
 * Depends on events/, @opentelemetry/api and the stable keys of @opentelemetry/semantic-conventions
 * only; the bottom of the bridge.
 */
export * from './semconv.js';
export * as semconv from './semconv.js';
export {
  emitsNamesOf,
  OPT_IN_BOTH,
  OPT_IN_CURRENT,
  OPT_IN_V1_41,
  secondSpellingIn,
  SEMCONV_OPT_IN_ENV,
  semconvModeFromEnv,
  spellingIn,
  spellValuesIn,
  valueSpellingIn,
  type SemconvMode,
} from './semconvMode.js';
export { boundString, flatten, MAX_NAME, safeJson, toList } from './bounded.js';
export { answerMessage, boundedJson, captureFromEnv, inputMessages, MAX_CONTENT_CHARS, outputMessages, systemInstructions, textMessage, toolDefinitions } from './content.js';
export { decisionAttributes, selectionAttributes } from './evidence.js';
export { FAILED_TOOL_STATUSES, failureOf, markFailed, recordFailure, UNRUN_TOOL_STATUSES } from './failure.js';
export { eventAttributes } from './spanEventAttributes.js';
export { spanTime } from './spanTime.js';
export { formatTraceparent, parseTraceparent } from './traceparent.js';
