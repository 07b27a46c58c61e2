// The metric contract as Prometheus sees it: every series name (and label) footprint-otel's
// bridge exports over OTLP, AFTER OTLP->Prometheus translation (UnderscoreEscapingWithSuffixes:
// dots -> underscores, unit suffix from UCUM units, brace units dropped, _total on counters,
// _bucket/_sum/_count on histograms). Dashboards, Prometheus rules and Grafana alert rules may
// query only these names (test/stack/promql-lint.test.ts). ONE list, so a rename shows up as a
// failing test rather than an empty panel; a later test checks SDK_METRIC_NAMES against a real
// export from a scripted run.

/** Resource attributes promoted to labels on every series (deploy/prometheus/prometheus.yml), plus
 * the job/instance labels Prometheus derives from service.name / service.instance.id. */
export const RESOURCE_LABELS = [
  'service_name',
  'service_namespace',
  'service_version',
  'deployment_environment_name',
  'job',
  'instance',
] as const;

const GEN_AI_COMMON = ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model', 'footprint_agent', 'footprint_skill', 'footprint_route'];
const RUN = ['footprint_runner_kind', 'footprint_runner_id', 'footprint_run_outcome'];
/** The GenAI model-call histograms also carry the response model and the server (when known). */
const GEN_AI_CALL = [...GEN_AI_COMMON, 'gen_ai_response_model', 'server_address', 'server_port'];

function histogram(base: string, labels: readonly string[]): Record<string, readonly string[]> {
  return { [`${base}_bucket`]: [...labels, 'le'], [`${base}_sum`]: labels, [`${base}_count`]: labels };
}

/** The MCP operation histograms (footprint-otel/mcp): by method, tool and server; error.type on failures. */
const MCP = ['mcp_method_name', 'gen_ai_tool_name', 'footprint_mcp_server', 'network_transport', 'error_type', 'mcp_protocol_version'];

/** footprint-otel/mcp's instruments: exported only by processes that use MCP (so not by the scripted runs of the stack tests). */
export const MCP_METRICS: Readonly<Record<string, readonly string[]>> = {
  // mcp.client.operation.duration, histogram s (server.* over HTTP)
  ...histogram('mcp_client_operation_duration_seconds', [...MCP, 'server_address', 'server_port']),
  // mcp.server.operation.duration, histogram s (traceMcpServer)
  ...histogram('mcp_server_operation_duration_seconds', MCP),
};

/**
 * A streamed model call's histograms: exported only by processes that stream (runner.stream(), demo
 * --stream), under the current model's names (gen_ai.client.inference.*) or the v1.41 mode's
 * (gen_ai.client.operation.*), both in the both mode.
 */
export const STREAMED_METRICS: Readonly<Record<string, readonly string[]>> = {
  // gen_ai.client.inference.time_to_first_chunk / .time_per_output_chunk, histograms s
  ...histogram('gen_ai_client_inference_time_to_first_chunk_seconds', GEN_AI_CALL),
  ...histogram('gen_ai_client_inference_time_per_output_chunk_seconds', GEN_AI_CALL),
  // gen_ai.client.operation.time_to_first_chunk / .time_per_output_chunk, their v1.41-mode names
  ...histogram('gen_ai_client_operation_time_to_first_chunk_seconds', GEN_AI_CALL),
  ...histogram('gen_ai_client_operation_time_per_output_chunk_seconds', GEN_AI_CALL),
};

/** The runtime's instruments (src/otel bridge), by Prometheus series name -> attribute labels: what every run exports. */
const RUN_METRICS: Readonly<Record<string, readonly string[]>> = {
  // The conventions' agent metrics (a second meter scope): gen_ai.invoke_agent.inference_calls
  // {inference_call} and .tool_calls {tool_call}, gen_ai.execute_tool.duration (s); error.type only on failed ones.
  ...histogram('gen_ai_invoke_agent_inference_calls', ['gen_ai_agent_name', 'footprint_agent']),
  ...histogram('gen_ai_invoke_agent_tool_calls', ['gen_ai_agent_name', 'footprint_agent']),
  ...histogram('gen_ai_execute_tool_duration_seconds', ['gen_ai_tool_name', 'gen_ai_tool_type', 'gen_ai_agent_name', 'footprint_agent', 'error_type']),
  // footprint.llm.cost.usd, counter {USD}
  footprint_llm_cost_usd_total: ['gen_ai_request_model', 'gen_ai_provider_name', 'footprint_agent', 'footprint_skill', 'footprint_route'],
  // footprint.route.decisions, counter {decision}
  footprint_route_decisions_total: ['footprint_router', 'footprint_route_chosen'],
  footprint_llm_fallbacks_total: ['footprint_fallback_from_model', 'footprint_fallback_to_model', 'footprint_agent'],
  // footprint.skill.escalations / footprint.skill.rejections, counters
  footprint_skill_escalations_total: ['footprint_agent', 'footprint_skill'],
  footprint_skill_rejections_total: ['footprint_agent', 'footprint_skill'],
  // footprint.runs, counter {run}; footprint.run.duration, histogram s
  footprint_runs_total: RUN,
  ...histogram('footprint_run_duration_seconds', RUN),
};

/**
 * The metrics renamed between the semconv modes (src/otel/encoding/semconvMode.ts, docs/conventions.md):
 * token usage as the current model's counters, a model call's duration as gen_ai.client.inference.duration,
 * agent turns and compositions as gen_ai.invocation.duration and the loop-guard trips as
 * footprint.loop_guard.trips (default; 'both' too), or as v1.41's histogram, gen_ai.client.operation.duration,
 * gen_ai.invoke_agent.duration with gen_ai.workflow.duration, and footprint.route.trips ('v1.41'; 'both' too). The cache and
 * reasoning counters are in the catalog contract only: v1.41's histogram has no such split, so no
 * shipped panel can show them in both modes, and no dashboard queries them.
 */
const TOKEN_LABELS = [...GEN_AI_CALL, 'gen_ai_token_modality'];
const TRIP_LABELS = ['footprint_trip_kind', 'footprint_agent', 'footprint_route'];
/** An agent turn's or composition's duration (gen_ai.invocation.duration): agents carry the agent labels, compositions gen_ai_workflow_name. */
const INVOCATION_LABELS = ['gen_ai_operation_name', 'gen_ai_invocation_is_nested', 'gen_ai_agent_name', 'gen_ai_workflow_name', 'footprint_agent', 'error_type'];
export const CURRENT_MODE_METRICS: Readonly<Record<string, readonly string[]>> = {
  // gen_ai.client.inference.duration, histogram s (error.type only on failed calls)
  ...histogram('gen_ai_client_inference_duration_seconds', [...GEN_AI_CALL, 'error_type']),
  // gen_ai.invocation.duration, histogram s: agent turns (invoke_agent) and compositions (invoke_workflow)
  ...histogram('gen_ai_invocation_duration_seconds', INVOCATION_LABELS),
  // footprint.loop_guard.trips, counter {trip}; every kind pre-created at 0
  footprint_loop_guard_trips_total: TRIP_LABELS,
  // gen_ai.client.inference.usage.input_tokens / .output_tokens, counters {token}
  gen_ai_client_inference_usage_input_tokens_total: TOKEN_LABELS,
  gen_ai_client_inference_usage_output_tokens_total: TOKEN_LABELS,
};
export const CACHE_AND_REASONING_METRICS: Readonly<Record<string, readonly string[]>> = {
  gen_ai_client_inference_usage_cache_read_input_tokens_total: TOKEN_LABELS,
  gen_ai_client_inference_usage_cache_write_input_tokens_total: TOKEN_LABELS,
  gen_ai_client_inference_usage_reasoning_output_tokens_total: TOKEN_LABELS,
};
export const V1_41_MODE_METRICS: Readonly<Record<string, readonly string[]>> = {
  // gen_ai.client.operation.duration, gen_ai.client.inference.duration's v1.41-mode name
  ...histogram('gen_ai_client_operation_duration_seconds', [...GEN_AI_CALL, 'error_type']),
  // gen_ai.invoke_agent.duration and gen_ai.workflow.duration (the development channel at fe5608e), histograms s
  ...histogram('gen_ai_invoke_agent_duration_seconds', ['gen_ai_agent_name', 'footprint_agent', 'error_type']),
  ...histogram('gen_ai_workflow_duration_seconds', ['gen_ai_workflow_name', 'error_type']),
  // footprint.route.trips, the same counter under its v1.41-mode name
  footprint_route_trips_total: TRIP_LABELS,
  // gen_ai.client.token.usage, histogram {token}
  ...histogram('gen_ai_client_token_usage', [...GEN_AI_CALL, 'gen_ai_token_type']),
};

/** Every instrument of the metric catalog (src/otel/metrics/catalog.ts), by Prometheus series name -> attribute labels. */
export const SDK_METRICS: Readonly<Record<string, readonly string[]>> = {
  ...RUN_METRICS,
  ...CURRENT_MODE_METRICS,
  ...CACHE_AND_REASONING_METRICS,
  ...V1_41_MODE_METRICS,
  ...STREAMED_METRICS,
  ...MCP_METRICS,
};

const SDK_COMPONENT = ['otel_component_type', 'otel_component_name', 'error_type'];

/**
 * startTelemetry's own health, in the OTel SDK self-observability instruments (src/telemetry/health.ts,
 * spanQueue.ts): spans and metric data points exported or lost (error.type = the cause), and spans
 * the batch processor handled (error.type="queue_full" for the ones it dropped).
 */
export const TELEMETRY_SELF_METRICS: Readonly<Record<string, readonly string[]>> = {
  // otel.sdk.exporter.span.exported {span}; otel.sdk.exporter.metric_data_point.exported {data_point}
  otel_sdk_exporter_span_exported_total: SDK_COMPONENT,
  otel_sdk_exporter_metric_data_point_exported_total: SDK_COMPONENT,
  // otel.sdk.processor.span.processed {span}
  otel_sdk_processor_span_processed_total: SDK_COMPONENT,
  // otel.sdk.processor.span.queue.capacity / .size {span}: the batch processor's queue, as gauges
  otel_sdk_processor_span_queue_capacity: SDK_COMPONENT,
  otel_sdk_processor_span_queue_size: SDK_COMPONENT,
};

/** Series the collector's span_metrics connector derives from spans (deploy/otel-collector/config.yaml). */
export const COLLECTOR_METRICS: Readonly<Record<string, readonly string[]>> = {
  traces_span_metrics_calls_total: ['span_name', 'span_kind', 'status_code', 'gen_ai_request_model', 'gen_ai_operation_name', 'footprint_route'],
  ...histogram('traces_span_metrics_duration_seconds', ['span_name', 'span_kind', 'status_code', 'gen_ai_request_model', 'gen_ai_operation_name', 'footprint_route']),
};

/** What a scripted run (no MCP, no streaming) exports in the default mode: the stack tests expect exactly these. */
export const SDK_METRIC_NAMES: readonly string[] = [...Object.keys(RUN_METRICS), ...Object.keys(CURRENT_MODE_METRICS)];
/** The same run's series in the v1.41 mode (OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_v1.41). */
export const SDK_METRIC_NAMES_V1_41: readonly string[] = [...Object.keys(RUN_METRICS), ...Object.keys(V1_41_MODE_METRICS)];
export const MCP_METRIC_NAMES: readonly string[] = Object.keys(MCP_METRICS);
export const STREAMED_METRIC_NAMES: readonly string[] = Object.keys(STREAMED_METRICS);
/** Series only a process that uses an optional feature exports (MCP, streaming). */
export const OPTIONAL_FEATURE_METRIC_NAMES: readonly string[] = [...MCP_METRIC_NAMES, ...STREAMED_METRIC_NAMES];
export const COLLECTOR_METRIC_NAMES: readonly string[] = Object.keys(COLLECTOR_METRICS);
export const TELEMETRY_SELF_METRIC_NAMES: readonly string[] = Object.keys(TELEMETRY_SELF_METRICS);
/** Every name a dashboard, rule or alert may query. */
export const EXPORTED_METRIC_NAMES: readonly string[] = [...new Set([...SDK_METRIC_NAMES, ...SDK_METRIC_NAMES_V1_41]), ...OPTIONAL_FEATURE_METRIC_NAMES, ...TELEMETRY_SELF_METRIC_NAMES, ...COLLECTOR_METRIC_NAMES];

/** Labels a selector on `metric` may match on. */
export function allowedLabels(metric: string): readonly string[] {
  const own = SDK_METRICS[metric] ?? TELEMETRY_SELF_METRICS[metric] ?? COLLECTOR_METRICS[metric] ?? [];
  return [...RESOURCE_LABELS, ...own];
}

/** Labels never to filter or group on: SDK/resource noise that differs between exporters and backends. */
export const FORBIDDEN_LABEL_PREFIXES = ['telemetry_sdk_'] as const;
