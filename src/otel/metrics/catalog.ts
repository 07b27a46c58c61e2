/**
 * The metric contract as data: every instrument footprint-otel exports, with its name, kind, unit,
 * value type, bucket boundaries and the attributes it may carry (docs/architecture.md, Metrics). Instruments are
 * created from these entries, the metric reference (docs/reference.md) is generated from them, and the
 * dashboards test checks every queried name against them, so a rename cannot drift silently.
 */
import {
  GENAI_DEV_SCHEMA_URL,
  METRIC_FOOTPRINT_LLM_COST_USD,
  METRIC_FOOTPRINT_LLM_FALLBACKS,
  METRIC_FOOTPRINT_LOOP_GUARD_TRIPS,
  METRIC_FOOTPRINT_ROUTE_DECISIONS,
  METRIC_FOOTPRINT_ROUTE_TRIPS,
  METRIC_FOOTPRINT_RUN_DURATION,
  METRIC_FOOTPRINT_RUNS,
  METRIC_FOOTPRINT_SKILL_ESCALATIONS,
  METRIC_FOOTPRINT_SKILL_REJECTIONS,
  METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_CACHE_READ_INPUT_TOKENS,
  METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_CACHE_WRITE_INPUT_TOKENS,
  METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_INPUT_TOKENS,
  METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_OUTPUT_TOKENS,
  METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_REASONING_OUTPUT_TOKENS,
  METRIC_GEN_AI_CLIENT_INFERENCE_DURATION,
  METRIC_GEN_AI_CLIENT_INFERENCE_TIME_PER_OUTPUT_CHUNK,
  METRIC_GEN_AI_CLIENT_INFERENCE_TIME_TO_FIRST_CHUNK,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_OPERATION_TIME_PER_OUTPUT_CHUNK,
  METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_GEN_AI_INVOCATION_DURATION,
  METRIC_GEN_AI_INVOKE_AGENT_DURATION,
  METRIC_GEN_AI_INVOKE_AGENT_INFERENCE_CALLS,
  METRIC_GEN_AI_INVOKE_AGENT_TOOL_CALLS,
  METRIC_GEN_AI_WORKFLOW_DURATION,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
} from '../encoding/index.js';
import { ATTR } from './metricAttributes.js';

export interface MetricSpec {
  /** The instrument name as exported over OTLP. */
  readonly name: string;
  readonly kind: 'counter' | 'histogram';
  readonly unit: string;
  readonly valueType: 'int' | 'double';
  readonly description: string;
  /** Attribute keys a data point may carry (error.type only on failed model calls; server.*, the response model only when known). */
  readonly attributes: readonly string[];
  /** Explicit bucket boundaries (histograms), given to the SDK as advice. */
  readonly buckets?: readonly number[];
  /**
   * The conventions a gen_ai.* metric follows, as the schema URL of the meter scope it is recorded
   * under; absent: semantic conventions v1.41.0 (SEMCONV_SCHEMA_URL), like every footprint.* metric.
   */
  readonly schemaUrl?: string;
  /**
   * The names this entry belongs to (otel/encoding/semconvMode.ts): 'current' entries are created
   * unless the mode is 'v1.41', 'v1.41' entries unless it is 'current'; absent: every mode.
   */
  readonly names?: 'current' | 'v1.41';
}

/** OTel GenAI semconv bucket advice for gen_ai.client.token.usage. */
export const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
] as const;

/** The GenAI conventions' bucket advice for a model call's duration and the two streamed-call histograms, under either name (seconds). */
export const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
] as const;

/** Whole runs: from a scripted run's milliseconds to an hour-long agent session (seconds). */
export const RUN_DURATION_BUCKETS = [
  0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600,
] as const;

/** The GenAI conventions' bucket advice for mcp.client/server.operation.duration (seconds). */
export const MCP_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] as const;
// The development channel's advice (docs/gen-ai/gen-ai-metrics.md of the pinned genai model).
/** gen_ai.invocation.duration, and gen_ai.invoke_agent.duration before it (seconds): 0.1 s doubling to 409.6 s. */
export const INVOKE_AGENT_DURATION_BUCKETS = [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4, 204.8, 409.6] as const;
/** gen_ai.workflow.duration (seconds): 1 s to 2 h. */
export const WORKFLOW_DURATION_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200] as const;
/** gen_ai.invoke_agent.inference_calls and .tool_calls: calls per invocation, 1 doubling to 128. */
export const CALLS_PER_INVOCATION_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128] as const;

const LLM = [ATTR.operation, ATTR.provider, ATTR.model, ATTR.agent, ATTR.skill, ATTR.route] as const;
/**
 * The GenAI conventions' own model-call attributes, set only when known: the server when the
 * provider has a URL, the response model when a response came back and named its model.
 */
const LLM_CONDITIONAL = [ATTR.responseModel, ATTR.serverAddress, ATTR.serverPort] as const;
/** An MCP operation: the method, the tool, the server it went to (by name, and by address over HTTP). */
const MCP = [ATTR.mcpMethod, ATTR.toolName, ATTR.mcpServer, ATTR.networkTransport, ATTR.errorType] as const;
const RUN = [ATTR.runnerKind, ATTR.runnerId, ATTR.runOutcome] as const;

/** A gen_ai.client.inference.usage.* counter of the current model: the model-call attributes and the tokens' modality. */
function usageCounter<Name extends string>(name: Name, description: string) {
  return {
    name,
    kind: 'counter',
    unit: '{token}',
    valueType: 'int',
    description,
    attributes: [...LLM, ...LLM_CONDITIONAL, ATTR.tokenModality],
    schemaUrl: GENAI_DEV_SCHEMA_URL,
    names: 'current',
  } as const;
}

/** A model call's duration (never recorded for a call that did not end); failed calls carry error.type. */
function modelCallDuration<Name extends string, Names extends 'current' | 'v1.41'>(name: Name, names: Names, schemaUrl?: string) {
  return {
    name,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Duration of each model call; failed calls carry error.type.',
    attributes: [...LLM, ...LLM_CONDITIONAL, ATTR.errorType],
    buckets: DURATION_BUCKETS,
    ...(schemaUrl === undefined ? {} : { schemaUrl }),
    names,
  } as const;
}

/** A streamed call's time to its first chunk (never recorded for a call that did not stream). */
function timeToFirstChunk<Name extends string, Names extends 'current' | 'v1.41'>(name: Name, names: Names, schemaUrl?: string) {
  return {
    name,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Time from the request of a streamed model call to its first chunk.',
    attributes: [...LLM, ...LLM_CONDITIONAL],
    buckets: DURATION_BUCKETS,
    ...(schemaUrl === undefined ? {} : { schemaUrl }),
    names,
  } as const;
}

/** A streamed call's time between consecutive chunks, one record per chunk after the first. */
function timePerOutputChunk<Name extends string, Names extends 'current' | 'v1.41'>(name: Name, names: Names, schemaUrl?: string) {
  return {
    name,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Time between consecutive chunks of a streamed model call, one record per chunk after the first.',
    attributes: [...LLM, ...LLM_CONDITIONAL],
    buckets: DURATION_BUCKETS,
    ...(schemaUrl === undefined ? {} : { schemaUrl }),
    names,
  } as const;
}

export const METRICS = {
  tokenUsage: {
    name: METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
    kind: 'histogram',
    unit: '{token}',
    valueType: 'int',
    description: 'Tokens used per model call, one record per token type (input, output).',
    attributes: [...LLM, ...LLM_CONDITIONAL, ATTR.tokenType],
    buckets: TOKEN_BUCKETS,
    names: 'v1.41',
  },
  // The current model's token counters (the development channel's token-metrics.yaml): totals and
  // rates, one add per model call that reported usage, the cache and reasoning ones when reported.
  inferenceInputTokens: usageCounter(METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_INPUT_TOKENS, 'Input tokens per model call, cached ones included.'),
  inferenceOutputTokens: usageCounter(METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_OUTPUT_TOKENS, 'Output tokens per model call, reasoning ones included.'),
  inferenceCacheReadTokens: usageCounter(METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_CACHE_READ_INPUT_TOKENS, 'Input tokens served from the provider cache (part of the input tokens).'),
  inferenceCacheWriteTokens: usageCounter(METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_CACHE_WRITE_INPUT_TOKENS, 'Input tokens written to the provider cache (part of the input tokens).'),
  inferenceReasoningTokens: usageCounter(METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_REASONING_OUTPUT_TOKENS, 'Output tokens spent reasoning (part of the output tokens).'),
  // A model call's duration and a streamed call's two histograms: the current model's names
  // (gen_ai.client.inference.*, metrics.yaml at e9de14b, #521), and the v1.41 ones before them.
  // The same attributes and buckets under either name; the both mode records each call under each.
  inferenceDuration: modelCallDuration(METRIC_GEN_AI_CLIENT_INFERENCE_DURATION, 'current', GENAI_DEV_SCHEMA_URL),
  operationDuration: modelCallDuration(METRIC_GEN_AI_CLIENT_OPERATION_DURATION, 'v1.41'),
  inferenceTimeToFirstChunk: timeToFirstChunk(METRIC_GEN_AI_CLIENT_INFERENCE_TIME_TO_FIRST_CHUNK, 'current', GENAI_DEV_SCHEMA_URL),
  timeToFirstChunk: timeToFirstChunk(METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK, 'v1.41'),
  inferenceTimePerOutputChunk: timePerOutputChunk(METRIC_GEN_AI_CLIENT_INFERENCE_TIME_PER_OUTPUT_CHUNK, 'current', GENAI_DEV_SCHEMA_URL),
  timePerOutputChunk: timePerOutputChunk(METRIC_GEN_AI_CLIENT_OPERATION_TIME_PER_OUTPUT_CHUNK, 'v1.41'),
  llmCost: {
    name: METRIC_FOOTPRINT_LLM_COST_USD,
    kind: 'counter',
    unit: '{USD}',
    valueType: 'double',
    description: 'Model spend in US dollars (tokens x price), by model, agent, skill and route.',
    attributes: [ATTR.model, ATTR.provider, ATTR.agent, ATTR.skill, ATTR.route],
  },
  routeDecisions: {
    name: METRIC_FOOTPRINT_ROUTE_DECISIONS,
    kind: 'counter',
    unit: '{decision}',
    valueType: 'int',
    description:
      "Routing decisions, one per routing act, by the composition that dispatched and the route its choice opens ('desk>billing', the footprint.route of the chosen member's cost; 'desk>_none': it chose nobody, so its work is done; 'desk>_not_in_roster': an unknown id).",
    attributes: [ATTR.router, ATTR.routeChosen],
  },
  loopGuardTrips: {
    name: METRIC_FOOTPRINT_LOOP_GUARD_TRIPS,
    kind: 'counter',
    unit: '{trip}',
    valueType: 'int',
    description: 'Loop-guard trips (ping_pong, rejected_cap) by agent and route; every kind starts at 0.',
    attributes: [ATTR.tripKind, ATTR.agent, ATTR.route],
    names: 'current',
  },
  llmFallbacks: {
    name: METRIC_FOOTPRINT_LLM_FALLBACKS,
    kind: 'counter',
    unit: '{fallback}',
    valueType: 'int',
    description: 'Model calls that moved to the next provider after a retryable failure had used its retries, by the model it moved from and to, and agent.',
    attributes: [ATTR.fallbackFromModel, ATTR.fallbackToModel, ATTR.agent],
  },
  routeTrips: {
    name: METRIC_FOOTPRINT_ROUTE_TRIPS,
    kind: 'counter',
    unit: '{trip}',
    valueType: 'int',
    description: 'Loop-guard trips under their v1.41-mode name (footprint.loop_guard.trips in the current mode).',
    attributes: [ATTR.tripKind, ATTR.agent, ATTR.route],
    names: 'v1.41',
  },

  skillEscalations: {
    name: METRIC_FOOTPRINT_SKILL_ESCALATIONS,
    kind: 'counter',
    unit: '{escalation}',
    valueType: 'int',
    description: 'Turns that switched to the escalation brain, by agent and the skill it was in.',
    attributes: [ATTR.agent, ATTR.skill],
  },
  skillRejections: {
    name: METRIC_FOOTPRINT_SKILL_REJECTIONS,
    kind: 'counter',
    unit: '{rejection}',
    valueType: 'int',
    description: 'read_skill requests refused (target not reachable), by agent and current skill.',
    attributes: [ATTR.agent, ATTR.skill],
  },
  // ── the conventions' agent metrics: one invocation (an agent turn or a composition run), one tool call ──
  // The current model's one duration for both (metrics.yaml at e9de14b, #571), with whether the
  // invocation runs inside another; the v1.41 mode keeps the two names of the development channel
  // at fe5608e, gen_ai.invoke_agent.duration and gen_ai.workflow.duration.
  invocationDuration: {
    name: METRIC_GEN_AI_INVOCATION_DURATION,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description:
      'Duration of each agent invocation (invoke_agent: an agent turn, a router step) and composition run (invoke_workflow), nested ones included (gen_ai.invocation.is_nested); failed ones carry error.type.',
    attributes: [ATTR.operation, ATTR.isNested, ATTR.agentName, ATTR.workflowName, ATTR.agent, ATTR.errorType],
    buckets: INVOKE_AGENT_DURATION_BUCKETS,
    schemaUrl: GENAI_DEV_SCHEMA_URL,
    names: 'current',
  },
  invokeAgentDuration: {
    name: METRIC_GEN_AI_INVOKE_AGENT_DURATION,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Duration of each agent invocation (an agent turn, a router step), from turn start to its end or failure; failed ones carry error.type.',
    attributes: [ATTR.agentName, ATTR.agent, ATTR.errorType],
    buckets: INVOKE_AGENT_DURATION_BUCKETS,
    schemaUrl: GENAI_DEV_SCHEMA_URL,
    names: 'v1.41',
  },
  invokeAgentInferenceCalls: {
    name: METRIC_GEN_AI_INVOKE_AGENT_INFERENCE_CALLS,
    kind: 'histogram',
    unit: '{inference_call}',
    valueType: 'int',
    description: 'Model calls one agent invocation made itself (failed ones included, nested agents not), one record per invocation.',
    attributes: [ATTR.agentName, ATTR.agent],
    buckets: CALLS_PER_INVOCATION_BUCKETS,
    schemaUrl: GENAI_DEV_SCHEMA_URL,
  },
  invokeAgentToolCalls: {
    name: METRIC_GEN_AI_INVOKE_AGENT_TOOL_CALLS,
    kind: 'histogram',
    unit: '{tool_call}',
    valueType: 'int',
    description: 'Tool calls one agent invocation made itself (failed ones included, nested agents not), one record per invocation.',
    attributes: [ATTR.agentName, ATTR.agent],
    buckets: CALLS_PER_INVOCATION_BUCKETS,
    schemaUrl: GENAI_DEV_SCHEMA_URL,
  },
  executeToolDuration: {
    name: METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Duration of each tool call; failed calls (error, invalid arguments, unknown tool) carry error.type.',
    attributes: [ATTR.toolName, ATTR.toolType, ATTR.agentName, ATTR.agent, ATTR.errorType],
    // The model advises the model-call duration's boundaries for tool calls too.
    buckets: DURATION_BUCKETS,
    schemaUrl: GENAI_DEV_SCHEMA_URL,
  },
  workflowDuration: {
    name: METRIC_GEN_AI_WORKFLOW_DURATION,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Duration of each composition run (Sequence, Parallel, Conditional, Loop, swarm), by its id; failed ones carry error.type.',
    attributes: [ATTR.workflowName, ATTR.errorType],
    buckets: WORKFLOW_DURATION_BUCKETS,
    schemaUrl: GENAI_DEV_SCHEMA_URL,
    names: 'v1.41',
  },
  runs: {
    name: METRIC_FOOTPRINT_RUNS,
    kind: 'counter',
    unit: '{run}',
    valueType: 'int',
    description: 'Top-level runs (and resumes) by runner and outcome: ok, error, cancelled, paused, stopped_early.',
    attributes: RUN,
  },
  runDuration: {
    name: METRIC_FOOTPRINT_RUN_DURATION,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Wall time of top-level runs (and resumes) by runner and outcome.',
    attributes: RUN,
    buckets: RUN_DURATION_BUCKETS,
  },
  mcpClientDuration: {
    name: METRIC_MCP_CLIENT_OPERATION_DURATION,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Each MCP request from sent to answered (footprint-otel/mcp), by method, tool and server; failed ones carry error.type.',
    attributes: [...MCP, ATTR.mcpProtocolVersion, ATTR.serverAddress, ATTR.serverPort],
    buckets: MCP_DURATION_BUCKETS,
  },
  mcpServerDuration: {
    name: METRIC_MCP_SERVER_OPERATION_DURATION,
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Each MCP request a traced server (traceMcpServer) handled, by method, tool and server; failed ones carry error.type.',
    attributes: [...MCP, ATTR.mcpProtocolVersion],
    buckets: MCP_DURATION_BUCKETS,
  },
} as const satisfies Record<string, MetricSpec>;

export type MetricKey = keyof typeof METRICS;

/** Every exported instrument, in catalog order. */
export const METRIC_CATALOG: readonly MetricSpec[] = Object.values(METRICS);
