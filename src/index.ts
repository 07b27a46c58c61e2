/**
 * footprint-otel: the public entry, listed name by name and grouped by what a user does. Everything
 * else in src/ is internal: the layers' own index files are their contracts with each other, not
 * with users. test/package/apiSurface.test.ts holds the reviewed list; a change here fails it until
 * the list is changed with it.
 *
 * Importing this module changes no global state: it registers no instrument. startTelemetry()
 * (footprint-otel/telemetry) registers the tracing and metrics instruments; an app with its own SDK
 * registers them with registerInstrument(tracingInstrument()) and registerInstrument(metricsInstrument()).
 */

// Build agents and compositions: runners, their options, results, pauses and typed errors.
export {
  Agent,
  LLMCall,
  Sequence,
  Parallel,
  Conditional,
  Loop,
  swarm,
  llmSwarm,
  llmRouter,
  Runner,
  isPaused,
  RunStream,
  StreamClosedError,
  RunFailedError,
  RunCancelledError,
  CheckpointError,
  MemoryCheckpointStore,
  MemoryConversationStore,
  ConversationStoreError,
  ConversationConflictError,
  StructuredOutputError,
  DEFAULT_TOOL_LIMITS,
  ConfigError,
  RoutingDecisionError,
  tool,
  type AgentBuilder,
  type AgentOptions,
  type Tool,
  type ToolArgs,
  type ToolInputSchema,
  type OutputSchema,
  type OutputOf,
  type ToolContext,
  type ToolSource,
  type LLMCallBuilder,
  type LLMCallOptions,
  type SequenceBuilder,
  type ParallelBuilder,
  type BranchResult,
  type BranchError,
  type MergeFn,
  type ConditionalBuilder,
  type Predicate,
  type Verdict,
  type LoopBuilder,
  type UntilFn,
  type SwarmOptions,
  type PickFn,
  type PickInput,
  type LlmRouter,
  type LlmRouterOptions,
  type LlmSwarmOptions,
  type RoutingDecision,
  type RoutingProblem,
  type RunInput,
  type RunOptions,
  type RunResult,
  type StopReason,
  type ConversationWindow,
  type ConversationStore,
  type ConversationStoreErrorCode,
  type StoredConversation,
  type ConversationEntry,
  type Paused,
  type Checkpoint,
  type CheckpointStore,
  type CheckpointRefusal,
  type ResumeOptions,
  type ToolLimits,
  type RunStreamPart,
  type StreamPartSource,
} from './runtime/index.js';

// Providers: the LLMProvider port, the adapters, their typed error, and pricing.
export {
  openaiCompatible,
  openaiResponses,
  anthropic,
  gemini,
  scripted,
  ProviderError,
  isProviderError,
  messageText,
  DEFAULT_PRICING,
  PRICING_AS_OF,
  priceFor,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  type LLMMessage,
  type Message,
  type MessagePart,
  type TextPart,
  type ImagePart,
  type ToolChoice,
  type ReasoningEffort,
  type ResponseFormat,
  type LLMStreamPart,
  type StreamOptions,
  type CompleteOptions,
  type ToolCall,
  type ToolSpec,
  type ProviderErrorKind,
  type OpenAICompatibleOptions,
  type AnthropicOptions,
  type OpenAIResponsesOptions,
  type GeminiOptions,
  type ScriptedOptions,
  type ScriptedReply,
  type FetchLike,
  type TransportOptions,
  type ModelPrice,
  type ModelPrices,
  type PricingTable,
  type PublishedPrice,
} from './runtime/index.js';

// Skills: skill graphs, their brains and loop guard, and the skill-path recorder that reads the skill path back.
export {
  defineSkill,
  skillGraph,
  READ_SKILL,
  type Skill,
  type SkillDefinition,
  type SkillGraph,
  type SkillGraphBuilder,
  type SkillGraphOptions,
  type SkillEdge,
  type LastToolResult,
  type BrainSpec,
  type FallbackBrain,
  type EscalationSpec,
  type LoopGuardOptions,
  type OnTrip,
} from './runtime/index.js';
export {
  skillPathRecorder,
  type SkillPathRecorder,
  type SkillPathRecorderOptions,
  type RecordedHop,
  type RecordedRejection,
  type RecordedTrip,
} from './recorders/index.js';

// Listen to events: runner.on(pattern, listener) hears these typed events; a run's outcome.
export {
  EVENT_TYPES,
  isFootprintEvent,
  type EventType,
  type EventPayloads,
  type EventPattern,
  type TypedEvent,
  type EventMeta,
  type MemberRef,
  type Listener,
  type Unsubscribe,
  type RunnerKind,
  type TokenUsage,
  type ModelServer,
  type CapturedMessage,
  type InputPart,
  type InputOriginKind,
  type InputProducer,
} from './events/index.js';
export { outcomeLabel, type RunOutcome, type RunOutcomeLabel } from './runtime/index.js';
// Lineage: the key that makes llm_start.parts carry keyed fingerprints (FOOTPRINT_FINGERPRINT_KEY, or set here).
export { setFingerprintKey } from './runtime/index.js';

// Take part in every run: instruments (tracing, metrics, your own).
export {
  registerInstrument,
  type RunInstrument,
  type RunSession,
  type RunStart,
  type RestoredEntry,
  type RunTree,
  type RunTreeNode,
  type RunnerProfile,
  type RunEvents,
} from './runtime/index.js';
export { tracingInstrument, tracingFailures, semconv, type SemconvMode, type TracingOptions, type TraceDetail } from './otel/index.js';

// Trace a plain footprintjs flowchart.
export { traceExecutor, type TraceExecutorOptions } from './otel/index.js';

// Metrics: the instrument and the metric catalog (names, units, buckets, attribute keys).
export { metricsInstrument, METRICS, type MetricsInstrumentOptions, type MetricSpec, type MetricKey } from './otel/index.js';
