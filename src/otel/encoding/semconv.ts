/**
 * The OpenTelemetry names the bridge writes, pinned in one place. GenAI names follow the conventions'
 * current model (open-telemetry/semantic-conventions-genai, docs/conventions.md) by default, and
 * semantic conventions v1.41.x, the last core release with live `gen_ai.*` definitions, in the v1.41
 * mode (semconvMode.ts). Everything the bridge adds on top is `footprint.*`. Dashboards, alert rules
 * and the metrics all read these constants, so a rename happens here or nowhere.
 */

/** The core semantic-conventions release of the v1.41 mode's names (and of the metrics it defines). */
export const SEMCONV_VERSION = '1.41.0';
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

/**
 * The GenAI conventions' development channel (open-telemetry/semantic-conventions-genai; no release
 * tag yet, the schema URL of its model/manifest.yaml): the spans follow it by default (the tracer's
 * schema URL), and the agent, tool and workflow metrics merged after v1.41 are recorded under a meter
 * scope with it.
 */
export const GENAI_DEV_VERSION = '1.42.0-dev';
export const GENAI_DEV_SCHEMA_URL = `https://opentelemetry.io/schemas/gen-ai-dev/${GENAI_DEV_VERSION}`;

/** The instrumentation scope every span of the bridge is created under. */
export const INSTRUMENTATION_NAME = 'footprint-otel';
export const INSTRUMENTATION_VERSION = '0.1.0';

// ── gen_ai.operation.name values and the span names built from them ─────────────────────────────
export const OP_CHAT = 'chat';
export const OP_EXECUTE_TOOL = 'execute_tool';
export const OP_INVOKE_AGENT = 'invoke_agent';
export const OP_INVOKE_WORKFLOW = 'invoke_workflow';

export const chatSpanName = (model: string): string => `${OP_CHAT} ${model}`;
export const toolSpanName = (tool: string): string => `${OP_EXECUTE_TOOL} ${tool}`;
export const agentSpanName = (agent: string): string => `${OP_INVOKE_AGENT} ${agent}`;
export const workflowSpanName = (workflow: string): string => `${OP_INVOKE_WORKFLOW} ${workflow}`;

// ── stable keys: imported, never copied ──────────────────────────────────────────────────────────
// Keys the conventions have declared stable come from @opentelemetry/semantic-conventions (as the
// opentelemetry-js-contrib instrumentations take them), under the package's own names.
export {
  ATTR_CLIENT_ADDRESS,
  ATTR_CLIENT_PORT,
  ATTR_ERROR_TYPE,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_INSTANCE_ID,
  ATTR_SERVICE_VERSION,
  ATTR_DB_SYSTEM_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_NAMESPACE,
  ATTR_DB_QUERY_SUMMARY,
  ATTR_DB_RESPONSE_STATUS_CODE,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';

// ── incubating gen_ai.* keys, copied from v1.41 ──────────────────────────────────────────────────
// The package's `incubating` entry point may change or drop a key in any minor release (and later
// releases only keep deprecated copies of these), so, as the contrib instrumentations do, the GenAI
// keys are copied here; test/semconv/semconvKeys.test.ts checks each against the vendored v1.41 model.

/** The operation requested: chat, execute_tool, invoke_agent, invoke_workflow. @experimental */
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
/** The GenAI provider as the client identifies it (openai, anthropic, ...). @experimental */
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
/** The model a request is made to. @experimental */
export const ATTR_GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
/** The temperature setting of the request. @experimental */
export const ATTR_GEN_AI_REQUEST_TEMPERATURE = 'gen_ai.request.temperature';
/** The most tokens the model may generate for the request. @experimental */
export const ATTR_GEN_AI_REQUEST_MAX_TOKENS = 'gen_ai.request.max_tokens';
/** Set (true) on a streamed request only: unset, the conventions read the request as not streamed. @experimental */
export const ATTR_GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream';
/** A streamed response's time from the request to its first chunk, in seconds. @experimental */
export const ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';
/** The model that generated the response, as the provider names it. @experimental */
export const ATTR_GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
/** The provider's identifier of the completion. @experimental */
export const ATTR_GEN_AI_RESPONSE_ID = 'gen_ai.response.id';
/** The stored response a request continued (the Responses API's previous_response_id); semantic-conventions-genai, not v1.41. @experimental */
export const ATTR_GEN_AI_REQUEST_PREVIOUS_RESPONSE_ID = 'gen_ai.request.previous_response.id';
/** The reasoning effort sent to the provider, as sent; semantic-conventions-genai, not v1.41. @experimental */
export const ATTR_GEN_AI_REQUEST_REASONING_LEVEL = 'gen_ai.request.reasoning.level';
/** The output type the request asked for: `json` on a call with structured output (AgentOptions.output); unset otherwise. @experimental */
export const ATTR_GEN_AI_OUTPUT_TYPE = 'gen_ai.output.type';
/** Why the model stopped generating, one reason per choice. @experimental */
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
/** Input (prompt) tokens, cached ones included. @experimental */
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
/** Output (completion) tokens, reasoning ones included. @experimental */
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
/** Input tokens served from the provider's cache (part of the input tokens). @experimental */
export const ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
/** Input tokens written to the provider's cache (part of the input tokens): v1.41's name, the v1.41 mode's. @experimental */
export const ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
/** Input tokens written to the provider's cache, the current model's name (semantic-conventions-genai #440; cache_creation in v1.41). @experimental */
export const ATTR_GEN_AI_USAGE_CACHE_WRITE_INPUT_TOKENS = 'gen_ai.usage.cache_write.input_tokens';
/** Output tokens spent on reasoning (part of the output tokens). @experimental */
export const ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS = 'gen_ai.usage.reasoning.output_tokens';
/** The kind of tokens a gen_ai.client.token.usage point counts: input or output. @experimental */
export const ATTR_GEN_AI_TOKEN_TYPE = 'gen_ai.token.type';
/** The agent's human-readable name. @experimental */
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
/** The agent's unique identifier. @experimental */
export const ATTR_GEN_AI_AGENT_ID = 'gen_ai.agent.id';
/** What an agent does, as its composition describes it (an llmSwarm roster entry); conditionally required on invoke_agent. */
export const ATTR_GEN_AI_AGENT_DESCRIPTION = 'gen_ai.agent.description';
/** The workflow's human-readable name. @experimental */
export const ATTR_GEN_AI_WORKFLOW_NAME = 'gen_ai.workflow.name';
/** Whether an invocation runs inside another in-process invocation (on gen_ai.invocation.duration). @experimental */
export const ATTR_GEN_AI_INVOCATION_IS_NESTED = 'gen_ai.invocation.is_nested';
/** The conversation (session) the operation belongs to. @experimental */
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
/** The request was sent only part of its conversation (a context window policy dropped older messages); semantic-conventions-genai #162. */
export const ATTR_GEN_AI_CONVERSATION_COMPACTED = 'gen_ai.conversation.compacted';
/** The event (a span event on the agent's span) that says what the conversation window dropped. */
export const EVENT_CONVERSATION_COMPACTED = 'footprint.conversation.compacted';
/** The name of the tool called. @experimental */
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
/** The tool call's identifier, as the model gave it. @experimental */
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
/** The kind of tool: function, extension or datastore. @experimental */
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
/** The skill a skill tool call loads (semantic-conventions-genai's load_skill form of execute_tool; read_skill's target). @experimental */
export const ATTR_GEN_AI_SKILL_NAME = 'gen_ai.skill.name';
/** What a tool does, as the model was told (execute_tool, recommended). */
export const ATTR_GEN_AI_TOOL_DESCRIPTION = 'gen_ai.tool.description';
/** Opt-in content: system instructions given apart from the chat history (JSON). @experimental */
export const ATTR_GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';
/** Opt-in content: the chat history sent to the model (JSON). @experimental */
export const ATTR_GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
/** Opt-in content: the messages the model returned (JSON). @experimental */
export const ATTR_GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
/** Opt-in content: the arguments a tool was called with (JSON). @experimental */
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
/** Opt-in content: what a successful tool call returned. @experimental */
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
/** The tools offered to the model (chat) or the agent (invoke_agent), as JSON; opt-in, under content capture. */
export const ATTR_GEN_AI_TOOL_DEFINITIONS = 'gen_ai.tool.definitions';

/** The modality a gen_ai.client.inference.usage.* count is of: text (the providers report no split), unknown. @experimental */
export const ATTR_GEN_AI_TOKEN_MODALITY = 'gen_ai.token.modality';

// ── the GenAI conventions' MCP page (Development; the JSON-RPC keys are not in the stable package) ─
/** The request or notification method, e.g. tools/call. @experimental */
export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
/** The MCP session (Streamable HTTP's Mcp-Session-Id). @experimental */
export const ATTR_MCP_SESSION_ID = 'mcp.session.id';
/** The negotiated MCP protocol version, e.g. 2025-11-25. @experimental */
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
/** The JSON-RPC id of the request, as a string. @experimental */
export const ATTR_JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
/** The JSON-RPC error code of an error response, as a string. @experimental */
export const ATTR_RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';

// ── the runtime's checks of a model's answer (gen_ai.evaluation.result events on its chat span) ──
/** The GenAI evaluation event: the runtime's own checks of a model's answer, on the chat span that gave it. */
export const EVENT_GEN_AI_EVALUATION_RESULT = 'gen_ai.evaluation.result';
/** Which check judged the answer (footprint.skill_jump, footprint.tool_arguments, footprint.router_choice). */
export const ATTR_GEN_AI_EVALUATION_NAME = 'gen_ai.evaluation.name';
/** The check's score: 0, the answer failed it (only failures are reported). */
export const ATTR_GEN_AI_EVALUATION_SCORE_VALUE = 'gen_ai.evaluation.score.value';
/** The check's verdict: refused, invalid, not_in_roster, malformed. */
export const ATTR_GEN_AI_EVALUATION_SCORE_LABEL = 'gen_ai.evaluation.score.label';
/** Why, in words (no content unless content capture is on). */
export const ATTR_GEN_AI_EVALUATION_EXPLANATION = 'gen_ai.evaluation.explanation';

/** The env var the GenAI conventions define for content capture (read in events/contentCapture.ts). */
export { CAPTURE_CONTENT_ENV } from '../../events/index.js';

// ── lineage: span links between model calls (semantic-conventions-genai PR #370, proposed, not merged) ──
/** On a span link: how the linked span shaped this one (CAUSED_BY_GENERATION, RETRY_OF, INFORMED_BY). @experimental */
export const ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE = 'gen_ai.attribution.link_type';
/** The link type of a fallback's chat span to the failed call's span it retries on another provider. */
export const LINK_RETRY_OF = 'RETRY_OF';
/** The link type of a span to a span whose output it read: a chat span to its input's producers. */
export const LINK_INFORMED_BY = 'INFORMED_BY';
/** The link type of an execute_tool span to the chat span whose reply asked for the call. */
export const LINK_CAUSED_BY_GENERATION = 'CAUSED_BY_GENERATION';

// ── lineage: what a link says beyond its type (footprint.*; docs/lineage.md) ──
/** On a link: where the linked span's parts came into this call (an input origin kind). */
export const ATTR_FOOTPRINT_LINEAGE_ORIGIN = 'footprint.lineage.origin';
/** On a link: the slot the producer's parts were sent in (system, messages, tools). */
export const ATTR_FOOTPRINT_LINEAGE_SLOT = 'footprint.lineage.slot';
/** On a link: the producer's parts, by index in their slot. */
export const ATTR_FOOTPRINT_LINEAGE_PART_INDEXES = 'footprint.lineage.part_indexes';
/** On a link: characters of the producer's parts, summed. */
export const ATTR_FOOTPRINT_LINEAGE_CHARS = 'footprint.lineage.chars';
/** On a link: estimated tokens of the producer's parts (ceil(chars / 4) each), summed. */
export const ATTR_FOOTPRINT_LINEAGE_TOKENS = 'footprint.lineage.tokens';
/** On a link: the keyed fingerprints of the producer's parts (only with a fingerprint key). */
export const ATTR_FOOTPRINT_LINEAGE_FINGERPRINTS = 'footprint.lineage.fingerprints';
/** On a link: the producer's id (a model call `call_…`, a tool call `call_…:toolu_…`, a hop `hop_…`). */
export const ATTR_FOOTPRINT_LINEAGE_PRODUCER = 'footprint.lineage.producer';
/** On a link to a stand-in (semantic detail: the invoke_agent span for a hop's stage span): the hop id. */
export const ATTR_FOOTPRINT_LINEAGE_HOP = 'footprint.lineage.hop';
/** On a chat span: producer links left out to stay under the span link limit (absent when none). */
export const ATTR_FOOTPRINT_LINEAGE_LINKS_FOLDED = 'footprint.lineage.links_folded';
/** On a chat span: parts left out of the part arrays (they hold the newest 128 of the parts not shared; absent when none). */
export const ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED = 'footprint.lineage.parts_folded';
/**
 * On a chat span: how many of the call's first parts are the first parts of its agent's call before
 * (the span of SHARED_SPAN_ID), sent again and not listed again in the part arrays (absent when none).
 */
export const ATTR_FOOTPRINT_LINEAGE_SHARED_PARTS = 'footprint.lineage.shared.parts';
/** On a chat span with SHARED_PARTS: the span id (hex, same trace) of the chat span whose first parts it shares. */
export const ATTR_FOOTPRINT_LINEAGE_SHARED_SPAN_ID = 'footprint.lineage.shared.span_id';
/** On a chat span: each part's origin kind, in the order sent (after the parts shared). */
export const ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS = 'footprint.lineage.part.origins';
/** On a chat span: each part's producer id, in the order sent (after the parts shared). */
export const ATTR_FOOTPRINT_LINEAGE_PART_PRODUCERS = 'footprint.lineage.part.producers';
/** On a chat span: each part's estimated tokens, in the order sent (after the parts shared). */
export const ATTR_FOOTPRINT_LINEAGE_PART_TOKENS = 'footprint.lineage.part.tokens';
/**
 * On the run span: the span id (hex) of the chat span whose output became the run's answer. An
 * attribute, not a link: Jaeger makes a root span's first same-trace link its parent (docs/lineage.md).
 */
export const ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID = 'footprint.lineage.answer.span_id';
/** On the run span: the model call id (`call_…`) whose output became the run's answer. */
export const ATTR_FOOTPRINT_LINEAGE_ANSWER_PRODUCER = 'footprint.lineage.answer.producer';

// ── footprint.* attributes ───────────────────────────────────────────────────────────────────────
export const ATTR_FOOTPRINT_RUN_ID = 'footprint.run.id';
/** The model a fallback moved from and the one it moved to (footprint.llm.fallbacks). */
export const ATTR_FOOTPRINT_FALLBACK_FROM_MODEL = 'footprint.fallback.from_model';
export const ATTR_FOOTPRINT_FALLBACK_TO_MODEL = 'footprint.fallback.to_model';
/** The store method a database client span performs (footprint-otel/postgres): load, append, claim, ensure_schema. */
export const ATTR_FOOTPRINT_STORE_CALL = 'footprint.store.call';
/** On an MCP tools/list client span: the tools the server listed that are not offered, each `name: why` (an inputSchema that cannot be used). */
export const ATTR_FOOTPRINT_MCP_TOOLS_REFUSED = 'footprint.mcp.tools.refused';
/** Takes the runtime's outcome labels (runtime/run/outcome.ts): ok, stopped_early, error, cancelled, paused. */
export const ATTR_FOOTPRINT_RUN_OUTCOME = 'footprint.run.outcome';
/** Why a run that stopped early stopped (the outcome's reason: max_iterations, loop_guard, budget_exhausted). */
export const ATTR_FOOTPRINT_RUN_STOP_REASON = 'footprint.run.stop_reason';
export const ATTR_FOOTPRINT_RUNNER_KIND = 'footprint.runner.kind';
export const ATTR_FOOTPRINT_RUNNER_ID = 'footprint.runner.id';
export const ATTR_FOOTPRINT_RESUMED = 'footprint.resumed';
export const ATTR_FOOTPRINT_PAUSED = 'footprint.paused';
export const ATTR_FOOTPRINT_STAGE_ID = 'footprint.stage.id';
export const ATTR_FOOTPRINT_STAGE_RUNTIME_ID = 'footprint.stage.runtime_id';
export const ATTR_FOOTPRINT_STAGE_TYPE = 'footprint.stage.type';
export const ATTR_FOOTPRINT_STAGE_LOOP_ITERATION = 'footprint.stage.loop_iteration';
export const ATTR_FOOTPRINT_STAGE_ATTEMPTS = 'footprint.stage.attempts';
export const ATTR_FOOTPRINT_SUBFLOW_ID = 'footprint.subflow.id';
export const ATTR_FOOTPRINT_FORK_CHILDREN = 'footprint.fork.children';
export const ATTR_FOOTPRINT_MEMBER_KIND = 'footprint.member.kind';
export const ATTR_FOOTPRINT_MEMBER_ID = 'footprint.member.id';
export const ATTR_FOOTPRINT_AGENT = 'footprint.agent';
export const ATTR_FOOTPRINT_SKILL = 'footprint.skill';
export const ATTR_FOOTPRINT_ROUTE = 'footprint.route';
/** The skills a run's agents entered, in order (`triage>billing`), on the run span. */
export const ATTR_FOOTPRINT_SKILL_PATH = 'footprint.skill.path';
export const ATTR_FOOTPRINT_BRAIN = 'footprint.brain';
export const ATTR_FOOTPRINT_ITERATION = 'footprint.iteration';
export const ATTR_FOOTPRINT_ITERATIONS = 'footprint.iterations';
export const ATTR_FOOTPRINT_LLM_CALL_ID = 'footprint.llm.call_id';
export const ATTR_FOOTPRINT_LLM_CALLS = 'footprint.llm.calls';
export const ATTR_FOOTPRINT_COST_USD = 'footprint.cost.usd';
export const ATTR_FOOTPRINT_COST_PRICED = 'footprint.cost.priced';
export const ATTR_FOOTPRINT_TOKENS_INPUT = 'footprint.tokens.input';
export const ATTR_FOOTPRINT_TOKENS_OUTPUT = 'footprint.tokens.output';
export const ATTR_FOOTPRINT_TOOL_STATUS = 'footprint.tool.status';
export const ATTR_FOOTPRINT_TOOL_PARALLEL_COUNT = 'footprint.tool.parallel_count';
export const ATTR_FOOTPRINT_TURN_OUTCOME = 'footprint.turn.outcome';
export const ATTR_FOOTPRINT_COMPOSITION_KIND = 'footprint.composition.kind';
export const ATTR_FOOTPRINT_COMPOSITION_STATUS = 'footprint.composition.status';
export const ATTR_FOOTPRINT_TRIP_KINDS = 'footprint.trip.kinds';
export const ATTR_FOOTPRINT_ESCALATED = 'footprint.escalated';
export const ATTR_FOOTPRINT_LINK_TYPE = 'footprint.link.type';

/** The MCP server an operation went to, by the name the app gave its connection (metrics). */
export const ATTR_FOOTPRINT_MCP_SERVER = 'footprint.mcp.server';
/** The composition that dispatched a routing decision (footprint.route.decisions). */
export const ATTR_FOOTPRINT_ROUTER = 'footprint.router';
/** The route a routing decision opens ('desk>billing', 'desk>_none'). */
export const ATTR_FOOTPRINT_ROUTE_CHOSEN = 'footprint.route.chosen';
/** Which loop guard tripped: ping_pong, rejected_cap. */
export const ATTR_FOOTPRINT_TRIP_KIND = 'footprint.trip.kind';

// ── span events the stage layouts add (typed events keep their own names) ────────────────────────
export const EVENT_FOOTPRINT_DECISION = 'footprint.decision';
export const EVENT_FOOTPRINT_SELECTION = 'footprint.selection';
export const EVENT_FOOTPRINT_STAGE_ATTEMPT = 'footprint.stage.attempt';
export const EVENT_FOOTPRINT_STAGE_RETRY = 'footprint.stage.retry';
export const EVENT_FOOTPRINT_LOOP = 'footprint.loop';
export const EVENT_FOOTPRINT_BREAK = 'footprint.break';
export const EVENT_FOOTPRINT_PAUSE = 'footprint.pause';
export const EVENT_FOOTPRINT_RESUME = 'footprint.resume';

// ── the v1.41 mode's spellings of renamed span-event names and attribute keys (issue #33) ───────
// Typed events are span events under their catalog name (events/catalog.ts). Those the one-word-per-
// idea pass renamed keep their old spelling in the v1.41 mode (semconvMode.ts: spellingIn), and the
// payload attributes flattened under the name follow it; so does the run span's path. Which name maps to
// which, and the stage span and attribute values renamed with them, is semconvMode.ts's table. Metric
// renames live in the metric catalog.
/** footprint.skill.hop in the v1.41 mode. */
export const EVENT_FOOTPRINT_ROUTE_HOP = 'footprint.route.hop';
/** footprint.loop_guard.trip in the v1.41 mode. */
export const EVENT_FOOTPRINT_ROUTE_TRIP = 'footprint.route.trip';
/** footprint.agent.next_step in the v1.41 mode. */
export const EVENT_FOOTPRINT_AGENT_ROUTE_DECIDED = 'footprint.agent.route_decided';
/** footprint.skill.path in the v1.41 mode. */
export const ATTR_FOOTPRINT_ROUTE_PATH = 'footprint.route.path';

// ── metric names (the catalog, otel/metrics/catalog.ts, gives each its instrument, unit and buckets) ─
/** v1.41's token histogram, one record per token type; the v1.41 mode's name for token usage. @experimental */
export const METRIC_GEN_AI_CLIENT_TOKEN_USAGE = 'gen_ai.client.token.usage';
/** The current model's token counters (model/gen-ai/token-metrics.yaml), each with gen_ai.token.modality. @experimental */
export const METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_INPUT_TOKENS = 'gen_ai.client.inference.usage.input_tokens';
/** Output tokens, reasoning ones included. @experimental */
export const METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_OUTPUT_TOKENS = 'gen_ai.client.inference.usage.output_tokens';
/** Input tokens served from the provider's cache (part of the input counter). @experimental */
export const METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.client.inference.usage.cache_read.input_tokens';
/** Input tokens written to the provider's cache (part of the input counter). @experimental */
export const METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_CACHE_WRITE_INPUT_TOKENS = 'gen_ai.client.inference.usage.cache_write.input_tokens';
/** Output tokens spent reasoning (part of the output counter). @experimental */
export const METRIC_GEN_AI_CLIENT_INFERENCE_USAGE_REASONING_OUTPUT_TOKENS = 'gen_ai.client.inference.usage.reasoning.output_tokens';
/** Duration of each model call (the current model's name, metrics.yaml at e9de14b, #521). @experimental */
export const METRIC_GEN_AI_CLIENT_INFERENCE_DURATION = 'gen_ai.client.inference.duration';
/** A streamed call's time to its first chunk (the current model's name). @experimental */
export const METRIC_GEN_AI_CLIENT_INFERENCE_TIME_TO_FIRST_CHUNK = 'gen_ai.client.inference.time_to_first_chunk';
/** A streamed call's time between chunks (the current model's name). @experimental */
export const METRIC_GEN_AI_CLIENT_INFERENCE_TIME_PER_OUTPUT_CHUNK = 'gen_ai.client.inference.time_per_output_chunk';
/** gen_ai.client.inference.duration under its v1.41-mode name. @experimental */
export const METRIC_GEN_AI_CLIENT_OPERATION_DURATION = 'gen_ai.client.operation.duration';
/** gen_ai.client.inference.time_to_first_chunk under its v1.41-mode name. @experimental */
export const METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK = 'gen_ai.client.operation.time_to_first_chunk';
/** gen_ai.client.inference.time_per_output_chunk under its v1.41-mode name. @experimental */
export const METRIC_GEN_AI_CLIENT_OPERATION_TIME_PER_OUTPUT_CHUNK = 'gen_ai.client.operation.time_per_output_chunk';
/** Duration of one agent invocation or composition run, nested or not (the current model's name, #571). @experimental */
export const METRIC_GEN_AI_INVOCATION_DURATION = 'gen_ai.invocation.duration';
/** An agent invocation's duration under its v1.41-mode name (gen_ai.invocation.duration in the current mode). @experimental */
export const METRIC_GEN_AI_INVOKE_AGENT_DURATION = 'gen_ai.invoke_agent.duration';
/** Model calls one agent invocation made itself. @experimental */
export const METRIC_GEN_AI_INVOKE_AGENT_INFERENCE_CALLS = 'gen_ai.invoke_agent.inference_calls';
/** Tool calls one agent invocation made itself. @experimental */
export const METRIC_GEN_AI_INVOKE_AGENT_TOOL_CALLS = 'gen_ai.invoke_agent.tool_calls';
/** Duration of one tool call. @experimental */
export const METRIC_GEN_AI_EXECUTE_TOOL_DURATION = 'gen_ai.execute_tool.duration';
/** A composition run's duration under its v1.41-mode name (gen_ai.invocation.duration in the current mode). @experimental */
export const METRIC_GEN_AI_WORKFLOW_DURATION = 'gen_ai.workflow.duration';
/** Each MCP request from sent to answered. @experimental */
export const METRIC_MCP_CLIENT_OPERATION_DURATION = 'mcp.client.operation.duration';
/** Each MCP request a traced server handled. @experimental */
export const METRIC_MCP_SERVER_OPERATION_DURATION = 'mcp.server.operation.duration';
export const METRIC_FOOTPRINT_LLM_COST_USD = 'footprint.llm.cost.usd';
/** Model calls that fell back to the next provider after a retryable failure, by from/to model and agent. */
export const METRIC_FOOTPRINT_LLM_FALLBACKS = 'footprint.llm.fallbacks';
export const METRIC_FOOTPRINT_ROUTE_DECISIONS = 'footprint.route.decisions';
/** Loop-guard trips: a trip is the loop guard's finding, not a route (docs/architecture.md's glossary). */
export const METRIC_FOOTPRINT_LOOP_GUARD_TRIPS = 'footprint.loop_guard.trips';
/** The same counter under its v1.41-mode name (docs/conventions.md). */
export const METRIC_FOOTPRINT_ROUTE_TRIPS = 'footprint.route.trips';
export const METRIC_FOOTPRINT_SKILL_ESCALATIONS = 'footprint.skill.escalations';
export const METRIC_FOOTPRINT_SKILL_REJECTIONS = 'footprint.skill.rejections';
export const METRIC_FOOTPRINT_RUNS = 'footprint.runs';
export const METRIC_FOOTPRINT_RUN_DURATION = 'footprint.run.duration';

// ── the SDK's self-observability, as startTelemetry records it (telemetry/health.ts) ─────────────
/** Spans an exporter exported or lost (error.type = the cause). @experimental */
export const METRIC_OTEL_SDK_EXPORTER_SPAN_EXPORTED = 'otel.sdk.exporter.span.exported';
/** Metric data points an exporter exported or lost. @experimental */
export const METRIC_OTEL_SDK_EXPORTER_METRIC_DATA_POINT_EXPORTED = 'otel.sdk.exporter.metric_data_point.exported';
/** The exporter's type, e.g. otlp_http_span_exporter. @experimental */
export const ATTR_OTEL_COMPONENT_TYPE = 'otel.component.type';
/** The exporter instance, `{type}/0`. @experimental */
export const ATTR_OTEL_COMPONENT_NAME = 'otel.component.name';

// ── well-known provider names ────────────────────────────────────────────────────────────────────
const PROVIDERS: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  'aws.bedrock': 'aws.bedrock',
  bedrock: 'aws.bedrock',
  'aws-bedrock': 'aws.bedrock',
  'azure.ai.openai': 'azure.ai.openai',
  'azure-openai': 'azure.ai.openai',
  azure_openai: 'azure.ai.openai',
  'azure.ai.inference': 'azure.ai.inference',
  'gcp.gemini': 'gcp.gemini',
  gemini: 'gcp.gemini',
  'gcp.vertex_ai': 'gcp.vertex_ai',
  vertex_ai: 'gcp.vertex_ai',
  vertex: 'gcp.vertex_ai',
  'gcp.gen_ai': 'gcp.gen_ai',
  cohere: 'cohere',
  deepseek: 'deepseek',
  groq: 'groq',
  'ibm.watsonx.ai': 'ibm.watsonx.ai',
  watsonx: 'ibm.watsonx.ai',
  mistral_ai: 'mistral_ai',
  mistral: 'mistral_ai',
  mistralai: 'mistral_ai',
  perplexity: 'perplexity',
  x_ai: 'x_ai',
  xai: 'x_ai',
};

/** The semconv well-known value for a provider name; names without one pass through lower-cased. */
export function providerName(name: string): string {
  const key = name.trim().toLowerCase();
  return PROVIDERS[key] ?? key;
}

// ── finish reasons: the runtime's normalised stop reasons -> semconv values ─────────────────────
const FINISH_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_call',
  max_tokens: 'length',
  // Anthropic's stop_reason when the reply filled the model's context window.
  model_context_window_exceeded: 'length',
  content_filter: 'content_filter',
  // Anthropic's stop_reason when its safety classifiers stopped the reply.
  refusal: 'content_filter',
  error: 'error',
};

export function finishReason(stopReason: string): string {
  return FINISH_REASONS[stopReason] ?? stopReason;
}

/**
 * Why an agent turn finished, as a semconv finish reason: an answer is `stop`, a turn cut at its
 * iteration cap `length` (a limit ran out, as a model's max_tokens does), a loop guard's stop `stop`.
 */
export function turnFinishReason(outcome: 'ok' | 'stopped_early', stoppedBy?: 'max_iterations' | 'loop_guard'): string {
  return outcome === 'stopped_early' && stoppedBy === 'max_iterations' ? 'length' : 'stop';
}
