/**
 * The metric contract as data: every instrument footprint-otel exports, with its name, kind, unit,
 * value type, bucket boundaries and the attributes it may carry (docs/architecture.md, Metrics). Instruments are
 * created from these entries, the metric reference (docs/reference.md) is generated from them, and the
 * dashboards test checks every queried name against them, so a rename cannot drift silently.
 */
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
}

/** OTel GenAI semconv bucket advice for gen_ai.client.token.usage. */
export const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
] as const;

/** OTel GenAI semconv bucket advice for gen_ai.client.operation.duration and the two streamed-call histograms (seconds). */
export const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
] as const;

/** Whole runs: from a scripted run's milliseconds to an hour-long agent session (seconds). */
export const RUN_DURATION_BUCKETS = [
  0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600,
] as const;

/** The GenAI conventions' bucket advice for mcp.client/server.operation.duration (seconds). */
export const MCP_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] as const;

const LLM = [ATTR.operation, ATTR.provider, ATTR.model, ATTR.agent, ATTR.skill, ATTR.route] as const;
/**
 * The GenAI conventions' own model-call attributes, set only when known: the server when the
 * provider has a URL, the response model when a response came back and named its model.
 */
const LLM_CONDITIONAL = [ATTR.responseModel, ATTR.serverAddress, ATTR.serverPort] as const;
/** An MCP operation: the method, the tool, the server it went to (by name, and by address over HTTP). */
const MCP = [ATTR.mcpMethod, ATTR.toolName, ATTR.mcpServer, ATTR.networkTransport, ATTR.errorType] as const;
const RUN = [ATTR.runnerKind, ATTR.runnerId, ATTR.runOutcome] as const;

export const METRICS = {
  tokenUsage: {
    name: 'gen_ai.client.token.usage',
    kind: 'histogram',
    unit: '{token}',
    valueType: 'int',
    description: 'Tokens used per model call, one record per token type (input, output).',
    attributes: [...LLM, ...LLM_CONDITIONAL, ATTR.tokenType],
    buckets: TOKEN_BUCKETS,
  },
  operationDuration: {
    name: 'gen_ai.client.operation.duration',
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Duration of each model call; failed calls carry error.type.',
    attributes: [...LLM, ...LLM_CONDITIONAL, ATTR.errorType],
    buckets: DURATION_BUCKETS,
  },
  // The two histograms of a streamed call (never recorded for a call that did not stream); the
  // conventions advise them the operation duration's boundaries.
  timeToFirstChunk: {
    name: 'gen_ai.client.operation.time_to_first_chunk',
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Time from the request of a streamed model call to its first chunk.',
    attributes: [...LLM, ...LLM_CONDITIONAL],
    buckets: DURATION_BUCKETS,
  },
  timePerOutputChunk: {
    name: 'gen_ai.client.operation.time_per_output_chunk',
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Time between consecutive chunks of a streamed model call, one record per chunk after the first.',
    attributes: [...LLM, ...LLM_CONDITIONAL],
    buckets: DURATION_BUCKETS,
  },
  llmCost: {
    name: 'footprint.llm.cost.usd',
    kind: 'counter',
    unit: '{USD}',
    valueType: 'double',
    description: 'Model spend in US dollars (tokens x price), by model, agent, skill and route.',
    attributes: [ATTR.model, ATTR.provider, ATTR.agent, ATTR.skill, ATTR.route],
  },
  routeDecisions: {
    name: 'footprint.route.decisions',
    kind: 'counter',
    unit: '{decision}',
    valueType: 'int',
    description:
      "Routing decisions, one per routing act, by the composition that dispatched and the route its choice opens ('desk>billing', the footprint.route of the chosen member's cost; 'desk>_none': it chose nobody, so its work is done; 'desk>_not_in_roster': an unknown id).",
    attributes: [ATTR.router, ATTR.routeChosen],
  },
  routeTrips: {
    name: 'footprint.route.trips',
    kind: 'counter',
    unit: '{trip}',
    valueType: 'int',
    description: 'Loop-guard trips (ping_pong, rejected_cap) by agent; every kind starts at 0.',
    attributes: [ATTR.tripKind, ATTR.agent],
  },
  skillEscalations: {
    name: 'footprint.skill.escalations',
    kind: 'counter',
    unit: '{escalation}',
    valueType: 'int',
    description: 'Turns that switched to the escalation brain, by agent and the skill it was in.',
    attributes: [ATTR.agent, ATTR.skill],
  },
  skillRejections: {
    name: 'footprint.skill.rejections',
    kind: 'counter',
    unit: '{rejection}',
    valueType: 'int',
    description: 'read_skill requests refused (target not reachable), by agent and current skill.',
    attributes: [ATTR.agent, ATTR.skill],
  },
  runs: {
    name: 'footprint.runs',
    kind: 'counter',
    unit: '{run}',
    valueType: 'int',
    description: 'Top-level runs (and resumes) by runner and outcome: ok, error, cancelled, paused, stopped_early.',
    attributes: RUN,
  },
  runDuration: {
    name: 'footprint.run.duration',
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Wall time of top-level runs (and resumes) by runner and outcome.',
    attributes: RUN,
    buckets: RUN_DURATION_BUCKETS,
  },
  mcpClientDuration: {
    name: 'mcp.client.operation.duration',
    kind: 'histogram',
    unit: 's',
    valueType: 'double',
    description: 'Each MCP request from sent to answered (footprint-otel/mcp), by method, tool and server; failed ones carry error.type.',
    attributes: [...MCP, ATTR.mcpProtocolVersion, ATTR.serverAddress, ATTR.serverPort],
    buckets: MCP_DURATION_BUCKETS,
  },
  mcpServerDuration: {
    name: 'mcp.server.operation.duration',
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
