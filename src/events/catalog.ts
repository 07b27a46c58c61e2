/**
 * The typed event catalog: every event the runtime and the recorders emit, by name, with its payload.
 *
 * Names are `footprint.<domain>.<action>`. The map below is the single source of truth: the emit helper
 * only accepts names declared here, the event reference (docs/reference.md) is generated from EVENT_DOCS, and a
 * test scans the sources to prove every declared event is emitted somewhere and nothing undeclared is.
 */

/** Who a runner is: the kind of runner and its id (ids are unique within their parent composition). */
export type RunnerKind =
  | 'agent'
  | 'llm_call'
  | 'sequence'
  | 'parallel'
  | 'conditional'
  | 'loop'
  | 'swarm'
  | 'router';

/**
 * Token usage of one model call, as the provider reported it (or a sum of such reports). Input counts
 * include cached tokens and output counts include reasoning tokens, as the GenAI conventions count them.
 */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Output tokens the model spent reasoning, when the provider reports them apart (OpenAI does). */
  reasoning?: number;
}

/** The cost of one model call. */
export interface CallCost {
  /** usage x price; 0 when not priced. */
  usd: number;
  /** False when usd is not usage x a listed price: the model has no price, or the usage is unknown. */
  priced: boolean;
}

/** The server a model call goes to (server.address / server.port), when the provider has a URL. */
export interface ModelServer {
  address: string;
  port: number;
}

/** Which brain served an LLM call: the skill's own, the escalation brain, or the agent's default. */
export interface BrainChoice {
  via: 'default' | 'skill' | 'escalation';
  provider: string;
  model: string;
  skillId?: string;
}

/**
 * A failure as events carry it. `message` is the whole text (listeners and the model see it). It is
 * content, exported only under content capture, unless `ownText` says footprint-otel worded it
 * (its typed errors and fixed results); then it is exported either way.
 */
export interface EventError {
  /** Low-cardinality: an HTTP status, a provider error kind, a fixed runtime type, else the error's class. */
  type: string;
  message: string;
  ownText?: boolean;
}

/** A part of a message's content, as the provider port's MessagePart has it. */
export type CapturedPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mediaType: string; readonly data?: string; readonly url?: string };

/** A message as sent to a model (only ever exported when content capture is switched on). */
export interface CapturedMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** Text, or parts: text and images (an image by its base64 bytes or its URL). */
  content: string | readonly CapturedPart[];
  toolCallId?: string;
  toolCalls?: { id: string; name: string; args: unknown }[];
}

/**
 * Where an input part of a model call came from (llm_start.parts). Lineage: each part of what a model
 * is sent names what produced it, so a wrong answer can be walked back to the context that shaped it.
 */
export type InputOriginKind =
  /** The agent's own system prompt (producer: the agent, kind 'member'); also the agent's own request to answer again (structured output), and its answer to the tool calls a turn stopped at its iteration cap did not run. */
  | 'instructions'
  /** The current skill's body in the system prompt (producer: the hop that entered the skill). */
  | 'skill'
  /** The run's input message(s) (producer: the run; for a runner run inside a tool, that tool call). */
  | 'run_input'
  /** An earlier assistant message of this run (producer: the model call that wrote it). */
  | 'model_output'
  /** A tool message (producer: the tool call that returned it). */
  | 'tool_result'
  /** A message handed over by another member or a router (producer: that member's or router's model call). */
  | 'handoff'
  /** A message restored from a checkpoint at resume (producer: as it was before the pause). */
  | 'checkpoint'
  /** A message loaded from a stored conversation (producer: the earlier run that appended it). */
  | 'conversation'
  /** The tool list (producer: the agent; one part for the whole slot). */
  | 'tool_definitions';

/** What produced an input part. */
export interface InputProducer {
  kind: 'model_call' | 'tool_call' | 'hop' | 'member' | 'run';
  /**
   * model_call: the llm callId; tool_call: `${callId}:${toolCallId}` (callId: the model call that asked
   * for it); hop: the hopId of footprint.skill.hop; member: the agent's or member's id; run: the runId.
   */
  id: string;
  /** Set when the producer belongs to another run (a stored conversation's earlier run, the run a tool call that started this one belongs to). */
  runId?: string;
}

/** One part of a model call's input, as sent (no content: sizes, origin, producer, keyed fingerprint). */
export interface InputPart {
  slot: 'system' | 'messages' | 'tools';
  /** Position within its slot as sent (system: the instructions, then the skill body; messages: the index in the sent window; tools: 0). */
  index: number;
  role: 'system' | 'user' | 'assistant' | 'tool';
  origin: InputOriginKind;
  producer: InputProducer;
  /** For checkpoint and conversation parts: what the part was originally. */
  restoredFrom?: Exclude<InputOriginKind, 'checkpoint' | 'conversation'>;
  /** Characters of text (tool calls: name and JSON arguments; tools: the JSON of their definitions); images count 0. */
  chars: number;
  /** Estimated, not the model's tokenizer: ceil(chars / 4), plus 1 000 per image. */
  tokens: number;
  /** Keyed fingerprint (HMAC-SHA-256, docs/security.md); absent without a key. */
  fingerprint?: string;
}

/**
 * Which model call, made by whom and how: what a call's start (llm_start) and its record (llm_end)
 * both say, so the end can be recorded on its own.
 */
export interface ModelCallSubject {
  callId: string;
  agentId: string;
  iteration: number;
  operation: 'chat';
  provider: string;
  model: string;
  /** Where the call goes (LLMProvider.server); absent for providers without a URL (scripted, custom). */
  server?: ModelServer;
  brain: BrainChoice;
  /** The skill the cursor was in when the call was made (skill graphs only). */
  skill?: string;
}

export interface EventPayloads {
  // ── agent ────────────────────────────────────────────────────────────────────────────────────
  'footprint.agent.turn_start': {
    agentId: string;
    name: string;
    provider: string;
    model: string;
    /** Unique per agent turn; ties the turn's events together (and loop-guard signals to the turn). */
    turnId: string;
    /** The user's message (content: exported only under content capture). */
    message: string;
    skillGraph: boolean;
    /** The request settings every call of the turn uses, when the agent sets them. */
    temperature?: number;
    maxTokens?: number;
  };
  'footprint.agent.turn_end': {
    agentId: string;
    outcome: 'ok' | 'stopped_early';
    iterations: number;
    tokens: TokenUsage;
    costUsd: number;
    llmCalls: number;
    stoppedEarly?: { reason: 'max_iterations' | 'loop_guard'; iteration: number };
    /** The answer (content: exported only under content capture). */
    answer: string;
  };
  'footprint.agent.iteration_start': { agentId: string; iteration: number; skill?: string };
  /** The model asked for tools at the last iteration the agent allows (maxIterations): the turn stops early. */
  'footprint.agent.iteration_cap': { agentId: string; maxIterations: number; iteration: number };
  'footprint.agent.iteration_end': { agentId: string; iteration: number; toolCallCount: number };
  /**
   * The agent's answer is not the structured output it was asked for (AgentOptions.output): not JSON,
   * or not valid for the schema. `retrying`: the model is asked again with `error.message`; else the
   * run fails with StructuredOutputError.
   */
  'footprint.agent.output_invalid': {
    agentId: string;
    turnId: string;
    iteration: number;
    /** The model call that gave the answer (llm_end.callId). */
    callId: string;
    /** 1 for the first invalid answer of the turn. */
    attempt: number;
    retrying: boolean;
    /** The answer as the model gave it (content). */
    text: string;
    /** What is wrong with it, as the model is told (content unless footprint-otel worded it). */
    error: EventError;
  };
  'footprint.agent.next_step': {
    agentId: string;
    iteration: number;
    chosen: 'tool-calls' | 'final' | 'stopped';
    rationale: string;
  };

  // ── call: model calls and tool calls ────────────────────────────────────────────────────────
  'footprint.call.llm_start': ModelCallSubject & {
    temperature?: number;
    maxTokens?: number;
    messageCount: number;
    toolCount: number;
    /** Content: exported only under content capture. */
    systemPrompt?: string;
    /** The provider sends the system prompt as the history's first message (LLMProvider.systemPromptInHistory). */
    systemPromptInHistory?: boolean;
    messages: CapturedMessage[];
    /** The tools offered to the model (content: exported only under content capture). */
    tools?: { name: string; description: string; inputSchema: Record<string, unknown> }[];
    /** The reply is streamed to the caller (runner.stream()), as gen_ai.request.stream says. */
    stream: boolean;
    /** The reasoning effort sent with the request (AgentOptions.reasoningEffort), when one was. */
    reasoningEffort?: string;
    /** This call is a fallback: the call before it (its id, provider and model) failed retryably after its retries. */
    fallbackFrom?: { callId: string; provider: string; model: string };
    /** The agent's conversation window left older messages out of this request (conversation.compacted says which). */
    compacted?: boolean;
    /** The structured output asked for (LLMRequest.responseFormat's name), when the agent has `output`. */
    responseFormat?: string;
    /** Every part sent, in the order sent (system slot, messages, tools): origin, producer, size, fingerprint; never content. */
    parts: InputPart[];
  };
  'footprint.call.llm_chunk': {
    callId: string;
    agentId: string;
    /** 0 for the call's first chunk. */
    index: number;
    /** Milliseconds since the call started (index 0: the time to first chunk). */
    atMs: number;
    /** The chunk as the provider port yielded it (text: content, exported only under content capture). */
    part: { type: 'text'; delta: string } | { type: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta: string };
  };
  /**
   * The one record of a model call: everything a consumer totals (usage, cost) and attributes it by
   * (agent, turn, skill, brain, provider, model; the route is meta.route) travels here once, answered
   * or failed. events/modelCalls.ts is how records add up.
   */
  'footprint.call.llm_end': ModelCallSubject & {
    /** The agent turn the call belongs to (turn_start.turnId). */
    turnId: string;
    responseModel?: string;
    responseId?: string;
    /** The stored response the request continued (the Responses API's previous_response_id), when it did. */
    previousResponseId?: string;
    /** What the provider reported; absent when it reported no usage, and when the call failed. */
    usage?: TokenUsage;
    /** usage x the model's price; `{ usd: 0, priced: false }` when either is unknown (a failed call: no usage). */
    cost: CallCost;
    /** Normalised as LLMResponse.stopReason; absent when the call failed (no response, no reason). */
    stopReason?: string;
    durationMs: number;
    /**
     * A streamed call (llm_start.stream): when its first chunk arrived, how many chunks came, and the
     * milliseconds from each chunk after the first to the one before it (chunks - 1 values, in order),
     * which gen_ai.client.operation.time_per_output_chunk records one by one.
     */
    streamed?: { firstChunkMs?: number; chunks: number; chunkGapsMs: number[] };
    toolCalls: { id: string; name: string }[];
    /** Content: exported only under content capture. */
    content: string;
    /** `name` is the error's class, e.g. ProviderError. */
    error?: EventError & { name: string; status?: number; retryable?: boolean };
  };
  'footprint.call.tool_start': {
    agentId: string;
    iteration: number;
    toolCallId: string;
    toolName: string;
    /** What the tool does, as the model was told (absent for a tool the agent does not have). */
    description?: string;
    parallelCount: number;
    /** Content: exported only under content capture. */
    args: unknown;
    /** read_skill only: the skill the call asks to load, its id as text (not content, as footprint.skill.rejected's `requested`). */
    skill?: string;
  };
  'footprint.call.tool_end': {
    agentId: string;
    iteration: number;
    toolCallId: string;
    toolName: string;
    /** `timeout`: past its deadline; `cancelled`: the run was cancelled during it; `too_many_calls`: past the reply's cap, not run. */
    status: 'ok' | 'error' | 'invalid_args' | 'unknown_tool' | 'paused' | 'timeout' | 'cancelled' | 'too_many_calls';
    durationMs: number;
    /** Content: exported only under content capture. */
    result: string;
    error?: EventError;
  };

  // ── composition ──────────────────────────────────────────────────────────────────────────────
  'footprint.composition.enter': { compositionId: string; kind: RunnerKind; childCount: number };
  'footprint.composition.exit': {
    compositionId: string;
    kind: RunnerKind;
    status: 'ok' | 'budget_exhausted' | 'no_route' | 'partial';
    durationMs: number;
    stopReason?: string;
  };
  'footprint.composition.route_decided': {
    compositionId: string;
    kind: RunnerKind;
    /** The branch (member id) chosen, or '' when routing chose nothing. */
    chosen: string;
    rationale: string;
    /** How the choice was made: a predicate matched, the fallback took it, an LLM router chose, etc. */
    matched: 'predicate' | 'fallback' | 'pick_fn' | 'llm' | 'none';
    /** The LLM router whose model made the choice (its member id), when one did: matched is then 'llm'. */
    router?: string;
    inRoster?: boolean;
    evidence?: unknown;
  };
  'footprint.composition.fork': { compositionId: string; branches: string[] };
  'footprint.composition.branch_end': {
    compositionId: string;
    branch: string;
    status: 'ok' | 'error';
    error?: EventError;
  };
  'footprint.composition.iteration': { compositionId: string; iteration: number };

  // ── skill graphs ─────────────────────────────────────────────────────────────────────────────
  'footprint.skill.entered': { agentId: string; skillId: string; from?: string; iteration: number };
  'footprint.skill.rejected': {
    agentId: string;
    turnId: string;
    requested: string;
    current: string;
    allowed: string[];
    iteration: number;
  };
  'footprint.skill.escalated': {
    agentId: string;
    from: { provider: string; model: string };
    to: { provider: string; model: string };
    refusals: number;
    reason: 'refusals' | 'loop_guard';
    iteration: number;
  };

  // ── route: the skill cursor's moves, and the loop guards ─────────────────────────────────────
  'footprint.skill.hop': {
    /** Unique in the run: what a skill part's producer names (InputProducer kind 'hop'). */
    hopId: string;
    agentId: string;
    turnId: string;
    iteration: number;
    from?: string;
    to: string;
    cause: 'entry' | 'edge' | 'model_pick' | 'stay';
    edgeLabel?: string;
  };
  'footprint.loop_guard.trip': {
    agentId: string;
    turnId: string;
    kind: 'ping_pong' | 'rejected_cap';
    skills: string[];
    window?: number;
    count?: number;
    iteration: number;
    tokensSinceLoop: number;
    costSinceLoopUsd: number;
    action: 'label' | 'stop' | 'escalate';
  };

  // ── conversation ─────────────────────────────────────────────────────────────────────────────
  /** A model call was sent only the latest part of its conversation: the agent's window dropped the oldest messages. */
  'footprint.conversation.compacted': {
    agentId: string;
    turnId: string;
    iteration: number;
    /** The model call that was sent the window (llm_start.callId). */
    callId: string;
    /** The window as configured. */
    maxMessages?: number;
    maxTokens?: number;
    /** Messages sent, and the oldest ones left out. */
    kept: number;
    dropped: number;
    /** The estimate of the tokens sent (window.ts's estimateTokens). */
    estimatedTokens: number;
  };
  // ── run lifecycle ────────────────────────────────────────────────────────────────────────────
  'footprint.run.paused': { question: string; toolCallId?: string; toolName?: string; agentId?: string };
  'footprint.run.resumed': {
    question: string;
    pausedAt: number;
    waitedMs: number;
    toolCallId?: string;
    toolName?: string;
    agentId?: string;
  };
  'footprint.run.failed': {
    member: string;
    memberKind: RunnerKind;
    stage: string;
    error: EventError;
  };
}

export type EventType = keyof EventPayloads;
export type EventDomain = EventType extends `footprint.${infer D}.${string}` ? D : never;

/**
 * A payload field that holds content, as a path: a field of the payload, or a field one level down
 * (`error.message`; any field under a field typed `unknown`, such as `evidence.reason`).
 */
export type ContentField<P> = {
  [K in keyof P & string]-?: K | (unknown extends P[K] ? `${K}.${string}` : `${K}.${FieldsOf<NonNullable<P[K]>>}`);
}[keyof P & string];
/** The fields of an object type, of each member of a union; none of an array or a primitive. */
type FieldsOf<V> = V extends readonly unknown[] ? never : V extends object ? keyof V & string : never;

/** What the catalog says of one event: its line in the reference, and which of its payload's fields are content. */
export interface EventEntry<P> {
  readonly doc: string;
  /**
   * The payload fields that hold content (what a user, a model, a tool or user code wrote): left out
   * of every export unless content capture is on (events/exportedView.ts). `[]` when none.
   */
  readonly content: readonly ContentField<P>[];
}

/** The catalog as a table a payload map must fill: one entry per event type, or the typecheck fails. */
export type EventTable<Payloads> = { readonly [K in keyof Payloads]: EventEntry<Payloads[K]> };

/**
 * One entry per event: its doc line (the generated reference, docs/reference.md) and its content
 * fields. Typed so a missing or stray entry fails typecheck: a new event type does not compile until
 * it says which of its fields are content.
 */
export const EVENTS = {
  'footprint.agent.turn_start': {
    doc: 'An agent turn begins (one run of an agent, top-level or mounted).',
    content: ['message'],
  },
  'footprint.agent.turn_end': {
    doc: 'An agent turn ends: outcome, iterations, token and cost totals, stop reason.',
    content: ['answer'],
  },
  'footprint.agent.iteration_start': {
    doc: 'One ReAct iteration begins (context, model call, route).',
    content: [],
  },
  'footprint.agent.iteration_end': {
    doc: 'One ReAct iteration ends, with the number of tool calls it made.',
    content: [],
  },
  'footprint.agent.iteration_cap': {
    doc: 'The model asked for tools at the last iteration the agent allows (maxIterations): the turn stops early.',
    content: [],
  },
  'footprint.agent.output_invalid': {
    doc: 'The answer is not the structured output asked for (not JSON, or not valid for the schema): the model is asked again, or the run fails.',
    content: ['text', 'error.message'],
  },
  'footprint.agent.next_step': {
    doc: "The agent's next step after a model call (decided by CallLLM): tool calls, the final answer, or a stop.",
    content: [],
  },
  'footprint.call.llm_start': {
    doc: 'A model call starts: provider, model, the brain that serves it, skill and route (and the call it falls back from, if any), and its input parts: where each came from, what produced it, its size and keyed fingerprint (never content).',
    content: ['systemPrompt', 'messages', 'tools'],
  },
  'footprint.call.llm_chunk': {
    doc: 'A streamed model call delivered a chunk (to listeners only: no span, span event or metric write when it arrives).',
    content: ['part.delta', 'part.argumentsDelta'],
  },
  'footprint.call.llm_end': {
    doc: 'A model call ends, answered or failed: the one record of the call (usage, cost, skill, brain, turn; the route is meta.route), with stop reason, duration, tool calls asked for, or the error.',
    content: ['content', 'error.message'],
  },
  'footprint.call.tool_start': {
    doc: 'A tool call starts (parallel calls in one turn share a parallelCount).',
    content: ['args'],
  },
  'footprint.call.tool_end': {
    doc: 'A tool call ends: ok, error, invalid arguments, unknown tool, paused, timeout, cancelled, or too many calls.',
    content: ['result', 'error.message'],
  },
  'footprint.composition.enter': {
    doc: 'A composition (Sequence, Parallel, Conditional, Loop, swarm) starts.',
    content: [],
  },
  'footprint.composition.exit': {
    doc: 'A composition ends, with its status and duration.',
    content: [],
  },
  'footprint.composition.route_decided': {
    doc: 'A routing decision: which branch, why, and the evidence.',
    content: ['evidence.reason'],
  },
  'footprint.composition.fork': {
    doc: 'A Parallel starts its branches.',
    content: [],
  },
  'footprint.composition.branch_end': {
    doc: 'One Parallel branch ends, ok or with its error.',
    content: ['error.message'],
  },
  'footprint.composition.iteration': {
    doc: 'A Loop or swarm starts another pass.',
    content: [],
  },
  'footprint.skill.entered': {
    doc: 'The skill cursor enters a skill.',
    content: [],
  },
  'footprint.skill.rejected': {
    doc: 'The model asked for a skill it may not reach from the cursor.',
    content: [],
  },
  'footprint.skill.escalated': {
    doc: 'The rest of the turn runs on the escalation brain.',
    content: [],
  },
  'footprint.skill.hop': {
    doc: 'The skill cursor moved (or stayed), and why: entry, declared edge, model pick, stay; its hopId is what a skill part of a later model call names as its producer.',
    content: [],
  },
  'footprint.loop_guard.trip': {
    doc: 'A loop guard tripped: ping-pong between two skills, or too many rejected jumps.',
    content: [],
  },
  'footprint.conversation.compacted': {
    doc: "A model call was sent only the latest part of its conversation: the agent's window (by messages or estimated tokens) dropped the oldest messages.",
    content: [],
  },
  'footprint.run.paused': {
    doc: 'The run paused for a human; the checkpoint carries the trace context.',
    content: ['question'],
  },
  'footprint.run.resumed': {
    doc: 'A paused run resumed (same run id, same trace).',
    content: ['question'],
  },
  'footprint.run.failed': {
    doc: 'The run failed: which member, which stage, which error.',
    content: ['error.message'],
  },
} as const satisfies EventTable<EventPayloads>;

/** One line per event, for the generated reference (docs/reference.md). */
export const EVENT_DOCS: { readonly [K in EventType]: string } = Object.fromEntries(
  Object.entries(EVENTS).map(([type, entry]) => [type, entry.doc]),
) as { readonly [K in EventType]: string };

export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];
