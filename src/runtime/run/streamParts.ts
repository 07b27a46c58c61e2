/**
 * What `runner.stream()` yields: typed parts made from the run's typed events as the hub delivers
 * them, one handler per event that becomes a part (everything else stays an event for listeners).
 * Every part but the last says who produced it, as the event's meta does: the member (the agent or
 * composition whose stage emitted it), the agent id, and the route in force (events/routes.ts).
 */
import { handleEvent, type EventHandlers, type EventPayloads, type MemberRef, type TypedEvent } from '../../events/index.js';
import { parsePartialJson } from './partialJson.js';
import { unfencedSoFar } from './modelJson.js';
import type { RunResult } from './result.js';

/** Who produced a part: from the event's meta. */
export interface StreamPartSource {
  member: MemberRef;
  /** The agent (or LLM call) that emitted it; absent for a composition's own parts. */
  agentId?: string;
  /** The routing choices in force, e.g. 'desk>billing' ('' when none). */
  route: string;
}

type ToolEnd = EventPayloads['footprint.call.tool_end'];

/** `Output`: the runner's structured-output type, which the `end` part's result carries as `stream.result` does. */
export type RunStreamPart<Output = unknown> =
  /** A piece of a model reply's text, as the provider streamed it; `callId` ties the pieces of one reply. */
  | ({ type: 'text'; delta: string; callId: string } & StreamPartSource)
  /** A tool call starts, with the arguments the model gave (assembled from its deltas). */
  | ({ type: 'tool_call'; toolCallId: string; toolName: string; args: unknown } & StreamPartSource)
  /** A tool call ended; `status` as tool_end has it ('paused' when it asked a human). */
  | ({ type: 'tool_result'; toolCallId: string; toolName: string; status: ToolEnd['status']; result: string; error?: ToolEnd['error'] } &
      StreamPartSource)
  /** A swarm (or llmSwarm, `matched: 'llm'`) hands the conversation to agent `to`. */
  | ({ type: 'handoff'; swarm: string; to: string; matched: EventPayloads['footprint.composition.route_decided']['matched']; rationale: string } &
      StreamPartSource)
  /**
   * The structured output (AgentOptions.output) so far, as the model streams its JSON: each time the
   * value parsed from the reply's text (or Anthropic's forced-tool arguments) changes (partialJson.ts).
   * Not validated: the result's `output` is the checked value.
   */
  | ({ type: 'partial_output'; value: unknown; callId: string } & StreamPartSource)
  /** The last part: the run's result, the answer or the Paused checkpoint (as run() returns it). */
  | { type: 'end'; result: RunResult<Output> };

/** Turns the run's events into parts, handing each to `push`. */
/** A streamed model call asked for structured output: its JSON so far and the last value yielded. */
interface StructuredCall {
  format: string;
  json: string;
  /** The stream index of the forced tool's call (Anthropic), once its first fragment named it. */
  toolIndex?: number;
  last?: string;
  /** The JSON's length when it was last parsed. */
  parsedAt: number;
}

/**
 * Each parse reads the whole JSON so far, so parsing at every chunk costs the square of a long answer's
 * length (a 100 KB answer in small chunks held the event loop for seconds). Up to PARSE_EVERY_CHUNK
 * characters every chunk is parsed; past them, a parse waits until the JSON has grown by a tenth since
 * the last one, which keeps the whole answer's parsing within about eleven times its length.
 */
const PARSE_EVERY_CHUNK = 4_096;
const GROWTH_BEFORE_PARSE = 1.1;

export class StreamParts {
  private readonly structured = new Map<string, StructuredCall>();

  /** Every part but `end`, which the stream adds itself with the run's result. */
  constructor(private readonly push: (part: Exclude<RunStreamPart, { type: 'end' }>) => void) {}

  onEvent(event: TypedEvent): void {
    handleEvent(this.handlers, event);
  }

  /** Adds the chunk's JSON to the call's and yields the value parsed so far when it changed. */
  private partialOutput(e: ChunkEvent, call: StructuredCall, part: ChunkEvent['payload']['part']): void {
    if (part.type === 'text') {
      call.json += part.delta;
    } else {
      if (part.name === call.format) call.toolIndex = part.index;
      if (part.index !== call.toolIndex) return;
      call.json += part.argumentsDelta;
    }
    const length = call.json.length;
    if (length > PARSE_EVERY_CHUNK && length < call.parsedAt * GROWTH_BEFORE_PARSE) return;
    this.yieldSoFar(call, e);
  }

  /** Parses the call's JSON so far and yields its value when it changed (`e`: the call's chunk, or its end). */
  private yieldSoFar(call: StructuredCall, e: TypedEvent<'footprint.call.llm_chunk' | 'footprint.call.llm_end'>): void {
    call.parsedAt = call.json.length;
    // An answer in one wrapping code fence is JSON (modelJson.ts): its value streams from the fence's first line on.
    let read: { value: unknown } | undefined;
    let seen: string;
    try {
      read = parsePartialJson(call.toolIndex === undefined ? unfencedSoFar(call.json) : call.json);
      if (read === undefined) return;
      seen = JSON.stringify(read.value);
    } catch {
      // Nested deeper than the stack lets the parser (or JSON.stringify) follow: no partial value, as
      // for a prefix that holds none yet. Partial values are a preview; the answer is judged whole (run() too).
      return;
    }
    if (seen === call.last) return;
    call.last = seen;
    this.push({ type: 'partial_output', value: read.value, callId: e.payload.callId, ...sourceOf(e) });
  }

  private readonly handlers: EventHandlers = {
    'footprint.call.llm_start': (e) => {
      if (e.payload.responseFormat !== undefined) this.structured.set(e.payload.callId, { format: e.payload.responseFormat, json: '', parsedAt: 0 });
    },
    'footprint.call.llm_chunk': (e) => {
      const { part, callId } = e.payload;
      if (part.type === 'text') this.push({ type: 'text', delta: part.delta, callId, ...sourceOf(e) });
      const call = this.structured.get(callId);
      if (call) this.partialOutput(e, call, part);
    },
    'footprint.call.llm_end': (e) => {
      // What came after the last parse (the schedule above skips some chunks of a long answer) is parsed once more.
      const call = this.structured.get(e.payload.callId);
      if (call && call.parsedAt < call.json.length) this.yieldSoFar(call, e);
      this.structured.delete(e.payload.callId);
    },
    'footprint.call.tool_start': (e) => {
      const { toolCallId, toolName, args } = e.payload;
      this.push({ type: 'tool_call', toolCallId, toolName, args, ...sourceOf(e) });
    },
    'footprint.call.tool_end': (e) => {
      const { toolCallId, toolName, status, result, error } = e.payload;
      this.push({ type: 'tool_result', toolCallId, toolName, status, result, ...(error ? { error } : {}), ...sourceOf(e) });
    },
    'footprint.composition.route_decided': (e) => {
      const { kind, compositionId, chosen, matched, rationale } = e.payload;
      // A swarm's choice of nobody ends the swarm; it hands nothing on.
      if (kind === 'swarm' && chosen !== '') this.push({ type: 'handoff', swarm: compositionId, to: chosen, matched, rationale, ...sourceOf(e) });
    },
  };
}

type ChunkEvent = TypedEvent<'footprint.call.llm_chunk'>;

function sourceOf({ meta }: TypedEvent): StreamPartSource {
  return { member: meta.member, route: meta.route, ...(meta.agentId !== undefined ? { agentId: meta.agentId } : {}) };
}
