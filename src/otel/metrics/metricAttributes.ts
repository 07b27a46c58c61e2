/**
 * Metric attribute keys and the rule that keeps their values bounded. Every value the metrics record
 * comes from code (agent, skill, model, router ids), from a closed set (outcomes, token types, trip
 * kinds), or from outside bounded to a known set (outsideValues.ts); this is the last line of defence: values are cut to a fixed length and a missing value
 * is always '' (so "no skill" is one series, never a mix of undefined, null and '').
 */
import {
  ERROR_TYPE,
  FP_AGENT,
  FP_FALLBACK_FROM_MODEL,
  FP_FALLBACK_TO_MODEL,
  FP_ROUTE,
  FP_RUN_OUTCOME,
  FP_RUNNER_ID,
  FP_RUNNER_KIND,
  FP_SKILL,
  GEN_AI_AGENT_NAME,
  GEN_AI_OPERATION_NAME,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_RESPONSE_MODEL,
  GEN_AI_TOKEN_TYPE,
  GEN_AI_TOOL_NAME,
  GEN_AI_TOOL_TYPE,
  GEN_AI_WORKFLOW_NAME,
  SERVER_ADDRESS,
  SERVER_PORT,
} from '../encoding/index.js';

/** The keys the metrics use; the ones spans share come from encoding/semconv.ts. */
export const ATTR = {
  operation: GEN_AI_OPERATION_NAME,
  provider: GEN_AI_PROVIDER_NAME,
  model: GEN_AI_REQUEST_MODEL,
  responseModel: GEN_AI_RESPONSE_MODEL,
  tokenType: GEN_AI_TOKEN_TYPE,
  serverAddress: SERVER_ADDRESS,
  serverPort: SERVER_PORT,
  errorType: ERROR_TYPE,
  agentName: GEN_AI_AGENT_NAME,
  toolName: GEN_AI_TOOL_NAME,
  toolType: GEN_AI_TOOL_TYPE,
  workflowName: GEN_AI_WORKFLOW_NAME,
  agent: FP_AGENT,
  skill: FP_SKILL,
  route: FP_ROUTE,
  fallbackFromModel: FP_FALLBACK_FROM_MODEL,
  fallbackToModel: FP_FALLBACK_TO_MODEL,
  router: 'footprint.router',
  routeChosen: 'footprint.route.chosen',
  tripKind: 'footprint.trip.kind',
  runnerKind: FP_RUNNER_KIND,
  runnerId: FP_RUNNER_ID,
  runOutcome: FP_RUN_OUTCOME,
  mcpMethod: 'mcp.method.name',
  mcpProtocolVersion: 'mcp.protocol.version',
  mcpServer: 'footprint.mcp.server',
  networkTransport: 'network.transport',
} as const;

/** Longest attribute value a metric carries; longer values are cut (ids and model names fit easily). */
export const MAX_ATTRIBUTE_CHARS = 128;

/**
 * A metric attribute value: '' when absent, cut to MAX_ATTRIBUTE_CHARS without a marker (a marker
 * would make each cut value a series of its own). Span text is bounded differently, with a marker
 * (encoding/bounded.ts boundString).
 */
export function metricValue(value: string | undefined): string {
  if (value === undefined) return '';
  return value.length > MAX_ATTRIBUTE_CHARS ? value.slice(0, MAX_ATTRIBUTE_CHARS) : value;
}
