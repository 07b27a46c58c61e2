/**
 * Metric attribute keys and the rule that keeps their values bounded. Every value the metrics record
 * comes from code (agent, skill, model, router ids), from a closed set (outcomes, token types, trip
 * kinds), or from outside bounded to a known set (outsideValues.ts); this is the last line of defence: values are cut to a fixed length and a missing value
 * is always '' (so "no skill" is one series, never a mix of undefined, null and ''). No data point
 * carries that '': every instrument leaves the attribute out when it records (withoutEmptyValues),
 * because a Thanos receiver refuses a whole write that holds a series with an empty label value.
 */
import type { Attributes } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_FOOTPRINT_FALLBACK_FROM_MODEL,
  ATTR_FOOTPRINT_FALLBACK_TO_MODEL,
  ATTR_FOOTPRINT_MCP_SERVER,
  ATTR_FOOTPRINT_ROUTE_CHOSEN,
  ATTR_FOOTPRINT_ROUTER,
  ATTR_FOOTPRINT_TRIP_KIND,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_NETWORK_TRANSPORT,
  ATTR_FOOTPRINT_AGENT,
  ATTR_FOOTPRINT_ROUTE,
  ATTR_FOOTPRINT_RUN_OUTCOME,
  ATTR_FOOTPRINT_RUNNER_ID,
  ATTR_FOOTPRINT_RUNNER_KIND,
  ATTR_FOOTPRINT_SKILL,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOKEN_MODALITY,
  ATTR_GEN_AI_TOKEN_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_WORKFLOW_NAME,
  ATTR_GEN_AI_INVOCATION_IS_NESTED,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '../encoding/index.js';

/** The keys the metrics use; the ones spans share come from encoding/semconv.ts. */
export const ATTR = {
  operation: ATTR_GEN_AI_OPERATION_NAME,
  provider: ATTR_GEN_AI_PROVIDER_NAME,
  model: ATTR_GEN_AI_REQUEST_MODEL,
  responseModel: ATTR_GEN_AI_RESPONSE_MODEL,
  tokenType: ATTR_GEN_AI_TOKEN_TYPE,
  tokenModality: ATTR_GEN_AI_TOKEN_MODALITY,
  serverAddress: ATTR_SERVER_ADDRESS,
  serverPort: ATTR_SERVER_PORT,
  errorType: ATTR_ERROR_TYPE,
  agentName: ATTR_GEN_AI_AGENT_NAME,
  toolName: ATTR_GEN_AI_TOOL_NAME,
  toolType: ATTR_GEN_AI_TOOL_TYPE,
  workflowName: ATTR_GEN_AI_WORKFLOW_NAME,
  isNested: ATTR_GEN_AI_INVOCATION_IS_NESTED,
  agent: ATTR_FOOTPRINT_AGENT,
  skill: ATTR_FOOTPRINT_SKILL,
  route: ATTR_FOOTPRINT_ROUTE,
  fallbackFromModel: ATTR_FOOTPRINT_FALLBACK_FROM_MODEL,
  fallbackToModel: ATTR_FOOTPRINT_FALLBACK_TO_MODEL,
  router: ATTR_FOOTPRINT_ROUTER,
  routeChosen: ATTR_FOOTPRINT_ROUTE_CHOSEN,
  tripKind: ATTR_FOOTPRINT_TRIP_KIND,
  runnerKind: ATTR_FOOTPRINT_RUNNER_KIND,
  runnerId: ATTR_FOOTPRINT_RUNNER_ID,
  runOutcome: ATTR_FOOTPRINT_RUN_OUTCOME,
  mcpMethod: ATTR_MCP_METHOD_NAME,
  mcpProtocolVersion: ATTR_MCP_PROTOCOL_VERSION,
  mcpServer: ATTR_FOOTPRINT_MCP_SERVER,
  networkTransport: ATTR_NETWORK_TRANSPORT,
} as const;

/** Longest attribute value a metric carries; longer values are cut (ids and model names fit easily). */
export const MAX_ATTRIBUTE_CHARS = 128;

/**
 * A metric attribute value: '' when absent (left out of the point when recorded), cut to MAX_ATTRIBUTE_CHARS without a marker (a marker
 * would make each cut value a series of its own). Span text is bounded differently, with a marker
 * (encoding/bounded.ts boundString).
 */
export function metricValue(value: string | undefined): string {
  if (value === undefined) return '';
  return value.length > MAX_ATTRIBUTE_CHARS ? value.slice(0, MAX_ATTRIBUTE_CHARS) : value;
}

/**
 * The attributes a data point carries: these without the ones whose value is '' (absent). Runs on
 * every record, so the common case (no '' value) only reads the keys and returns the same object.
 */
export function withoutEmptyValues(attributes: Attributes | undefined): Attributes | undefined {
  for (const key in attributes) {
    if (attributes[key] === '') return presentOnly(attributes);
  }
  return attributes;
}

function presentOnly(attributes: Attributes): Attributes {
  const present: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== '') present[key] = value;
  }
  return present;
}
