/**
 * The public API, reviewed: every name each package entry exports, values and types, as a list a
 * change must edit (the list is the review). The entries export by name only (no `export *`), so
 * their source lists every name; the values are also read from the loaded module, so the two views
 * cannot disagree. Importing an entry changes no global state: it registers no run instrument.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

const MAIN = {
  values: [
    // build agents and compositions
    'Agent', 'CheckpointError', 'Conditional', 'ConfigError', 'DEFAULT_TOOL_LIMITS', 'LLMCall', 'Loop', 'MemoryCheckpointStore', 'Parallel',
    'RoutingDecisionError', 'RunCancelledError',
    // keep conversations
    'ConversationConflictError', 'ConversationStoreError', 'MemoryConversationStore',
    // structured output
    'StructuredOutputError',
    'RunFailedError', 'RunStream', 'Runner', 'Sequence', 'StreamClosedError', 'isPaused', 'llmRouter', 'llmSwarm', 'swarm', 'tool',
    // providers
    'DEFAULT_PRICING', 'PRICING_AS_OF', 'ProviderError', 'anthropic', 'gemini', 'isProviderError', 'messageText', 'openaiCompatible', 'openaiResponses', 'priceFor',
    'scripted',
    // skills
    'READ_SKILL', 'defineSkill', 'skillGraph', 'skillPathRecorder',
    // listen to events
    'EVENT_TYPES', 'isFootprintEvent', 'outcomeLabel',
    // lineage: keyed fingerprints of input parts
    'setFingerprintKey',
    // take part in every run
    'registerInstrument', 'semconv', 'tracingFailures', 'tracingInstrument',
    // trace a plain flowchart
    'traceExecutor',
    // metrics
    'METRICS', 'metricsInstrument',
  ],
  types: [
    'AgentBuilder', 'AgentOptions', 'BranchError', 'BranchResult', 'Checkpoint', 'CheckpointRefusal', 'CheckpointStore', 'ConditionalBuilder',
    'LLMCallBuilder', 'LLMCallOptions', 'ResumeOptions', 'ToolLimits',
    'LlmRouter', 'LlmRouterOptions', 'LlmSwarmOptions', 'LoopBuilder', 'MergeFn', 'ParallelBuilder', 'Paused', 'PickFn', 'PickInput', 'Predicate',
    'RoutingDecision', 'RoutingProblem', 'RunInput', 'RunOptions', 'RunResult', 'RunStreamPart', 'SequenceBuilder',
    'StreamPartSource', 'SwarmOptions', 'Tool', 'ToolArgs', 'StopReason',
    'ConversationStore', 'ConversationStoreErrorCode', 'StoredConversation', 'ConversationWindow', 'ConversationEntry',
    'ToolContext', 'ToolInputSchema', 'ToolSource', 'UntilFn', 'Verdict',
    'OutputOf', 'OutputSchema',
    'AnthropicOptions', 'CompleteOptions', 'FetchLike', 'LLMMessage', 'LLMProvider', 'LLMRequest', 'LLMResponse', 'LLMStreamPart',
    'ModelPrice', 'ModelPrices', 'OpenAICompatibleOptions', 'PricingTable', 'ProviderErrorKind', 'PublishedPrice', 'ScriptedOptions', 'ScriptedReply', 'StreamOptions',
    'ToolCall', 'ToolSpec', 'TransportOptions',
    'GeminiOptions', 'ImagePart', 'Message', 'MessagePart', 'OpenAIResponsesOptions', 'ReasoningEffort', 'ResponseFormat', 'TextPart', 'ToolChoice',
    'BrainSpec', 'FallbackBrain', 'EscalationSpec', 'LastToolResult', 'LoopGuardOptions', 'OnTrip', 'RecordedHop', 'RecordedRejection', 'RecordedTrip', 'SkillEdge',
    'SkillPathRecorder', 'SkillPathRecorderOptions', 'Skill', 'SkillDefinition', 'SkillGraph', 'SkillGraphBuilder', 'SkillGraphOptions',
    'CapturedMessage', 'InputOriginKind', 'InputPart', 'InputProducer', 'EventMeta', 'EventPattern', 'EventPayloads', 'EventType', 'Listener', 'MemberRef', 'ModelServer', 'RunOutcome',
    'RunOutcomeLabel', 'RunnerKind', 'TokenUsage', 'TypedEvent', 'Unsubscribe',
    'RestoredEntry', 'RunEvents', 'RunInstrument', 'RunSession', 'RunStart', 'RunTree', 'RunTreeNode', 'RunnerProfile', 'SemconvMode', 'TraceDetail', 'TracingOptions',
    'TraceExecutorOptions',
    'MetricKey', 'MetricSpec', 'MetricsInstrumentOptions',
  ],
};

const TELEMETRY = {
  values: ['DEFAULT_FILE_DIRECTORY', 'EndpointError', 'TelemetryAlreadyStartedError', 'TelemetryConfigError', 'TraceFileError', 'describeCause', 'listSignalFiles', 'readSpans', 'scanSpans', 'startTelemetry', 'totalLost'],
  types: [
    'Destination', 'FileAttributeValue', 'FileAttributes', 'FileSpan', 'FileSpanEvent', 'LossCause', 'OtlpProtocol', 'SignalHealth',
    'StartTelemetryOptions', 'TelemetryHandle', 'TelemetryHealth', 'TraceFileProblem',
  ],
};

const MCP = {
  values: ['DEFAULT_CALL_TIMEOUT_MS', 'DEFAULT_CONNECT_TIMEOUT_MS', 'MCP_ERROR_TYPES', 'McpCallError', 'McpConnectError', 'McpConnection', 'McpPeerMissingError', 'connectMcp', 'traceMcpServer'],
  types: ['ClientAddress', 'ClientAddressOf', 'Connectable', 'HttpServer', 'McpConnectOptions', 'RefusedTool', 'StdioServer', 'TelemetryEnv', 'TraceMcpServerOptions'],
};

const POSTGRES = {
  values: ['CLAIMS_TABLE', 'CONVERSATIONS_TABLE', 'DEFAULT_STORE_TIMEOUT_MS', 'PostgresCheckpointStore', 'PostgresConversationStore'],
  types: ['PgClient', 'PgPool', 'PostgresConnectionSettings', 'PostgresStoreOptions'],
};

/** The names an entry's source exports, split into values and types; refuses any other export form. */
function exportsOf(entry: string): { values: string[]; types: string[]; otherForms: string[] } {
  const text = readFileSync(resolve(SRC, entry), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  const values: string[] = [];
  const types: string[] = [];
  for (const [, typeOnly, list] of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from\s*'[^']+';/g)) {
    for (const item of list!.split(',').map((part) => part.trim()).filter(Boolean)) {
      const isType = typeOnly !== undefined || item.startsWith('type ');
      const name = item.replace(/^type\s+/, '').split(/\s+as\s+/).at(-1)!;
      (isType ? types : values).push(name);
    }
  }
  const otherForms = [...text.replace(/export\s+(type\s+)?\{[^}]*\}\s*from\s*'[^']+';/g, '').matchAll(/\bexport\b[^;\n]*/g)].map((m) => m[0]);
  return { values: values.sort(), types: types.sort(), otherForms };
}

const sorted = (names: string[]) => [...names].sort();

describe.each([
  ['footprint-otel', 'index.ts', MAIN],
  ['footprint-otel/telemetry', 'telemetry/index.ts', TELEMETRY],
  ['footprint-otel/mcp', 'mcp/index.ts', MCP],
  ['footprint-otel/postgres', 'postgres/index.ts', POSTGRES],
])('the %s entry', (_name, entry, reviewed) => {
  it('exports by name only, from its layers', () => {
    expect(exportsOf(entry).otherForms).toEqual([]);
  });

  it('exports exactly the reviewed values and types', () => {
    const { values, types } = exportsOf(entry);
    expect({ values, types }).toEqual({ values: sorted(reviewed.values), types: sorted(reviewed.types) });
  });

  it('loads exactly those values', async () => {
    const loaded = (await import(resolve(SRC, entry))) as Record<string, unknown>;
    expect(sorted(Object.keys(loaded))).toEqual(sorted(reviewed.values));
  });
});

describe('importing the package', () => {
  it('registers no run instrument (and so no tracing, metrics or route guard)', async () => {
    const { registeredInstruments } = await import('../../src/runtime/run/instruments.js');
    await import('../../src/index.js');
    await import('../../src/telemetry/index.js');
    expect([...registeredInstruments()]).toEqual([]);
  });
});
