/**
 * One run's lineage as span links (issue #36, docs/lineage.md): which span produced what a model
 * call was sent. It keeps a map of producer id (a model call's callId, a tool call's
 * `${callId}:${toolCallId}`, a hop's hopId) to the span that stands for it, filled as the run's chat,
 * execute_tool and hop spans start and seeded with the producers of earlier runs or of the run before
 * its pause (lineageCarry.ts). From an llm_start's parts it gives the chat span its links (one per
 * producer span, at span start, so samplers see them) and, once started, its part arrays; an execute_tool span its
 * link to the chat span that asked for it; the run span the attributes naming the chat span whose
 * output became the answer. The work per call is one pass over the call's parts.
 *
 * A chat span's part arrays list only what follows the parts it shares with its agent's call before
 * (the same part objects, run/inputParts.ts, in the same places): an agent's turn sends its whole
 * conversation at every call, so listing every part again made a turn's tables grow with its messages
 * once per call (docs/lineage.md, The part table; docs/benchmarks.md measures what it cost).
 */
import type { Attributes, Link, Span, SpanContext } from '@opentelemetry/api';
import type { InputOriginKind, InputPart } from '../../events/index.js';
import { knownProducers, type CarriedBy, type KnownProducers, type ProducerSpan, type Reply } from './lineageCarry.js';
import {
  ATTR_FOOTPRINT_LINEAGE_ANSWER_PRODUCER,
  ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID,
  ATTR_FOOTPRINT_LINEAGE_CHARS,
  ATTR_FOOTPRINT_LINEAGE_FINGERPRINTS,
  ATTR_FOOTPRINT_LINEAGE_HOP,
  ATTR_FOOTPRINT_LINEAGE_LINKS_FOLDED,
  ATTR_FOOTPRINT_LINEAGE_ORIGIN,
  ATTR_FOOTPRINT_LINEAGE_PART_INDEXES,
  ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS,
  ATTR_FOOTPRINT_LINEAGE_PART_PRODUCERS,
  ATTR_FOOTPRINT_LINEAGE_PART_TOKENS,
  ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED,
  ATTR_FOOTPRINT_LINEAGE_PRODUCER,
  ATTR_FOOTPRINT_LINEAGE_SHARED_PARTS,
  ATTR_FOOTPRINT_LINEAGE_SHARED_SPAN_ID,
  ATTR_FOOTPRINT_LINEAGE_SLOT,
  ATTR_FOOTPRINT_LINEAGE_TOKENS,
  ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE,
  boundString,
  LINK_CAUSED_BY_GENERATION,
  LINK_INFORMED_BY,
} from '../encoding/index.js';

/** The part arrays on a chat span hold the newest this many parts; a link's part indexes and fingerprints, its newest this many. */
export const MAX_PART_ENTRIES = 128;
/** A producer id as exported (a model's tool call id is the model's to choose, of any length). */
const MAX_PRODUCER = 256;

/** The parts of one producer in one call: one link. */
interface ProducerParts {
  first: InputPart;
  indexes: number[];
  chars: number;
  tokens: number;
  /** Absent while none of its parts has a fingerprint (no key: no array made per call). */
  fingerprints?: string[];
}

/** An agent's latest recorded part table: the span it is on and the parts of the call. */
interface RecordedTable {
  spanId: string;
  parts: readonly InputPart[];
}

/** A link's attributes as last given to a producer, and the parts they were made of. */
interface KeptLink {
  group: ProducerParts;
  hop: string | undefined;
  attributes: Attributes;
}

/** Parts whose producer is an ancestor of the chat span (the agent, the run): no link, the part arrays show them. */
const ANCESTOR_ORIGINS: ReadonlySet<InputOriginKind> = new Set(['instructions', 'run_input', 'tool_definitions']);

export class RunLineage {
  /** Producer id → its span: this run's, after the producers it started with. */
  private readonly producers: Map<string, ProducerSpan>;
  /** Other runs' spans by run id: made only for a run that starts with some or loads a conversation. */
  private runs?: Map<string, SpanContext>;
  /** A stored conversation's entries (RunStart.restored): filled when the thread loads, after the run starts; read at each call. */
  private readonly restored: readonly CarriedBy[];
  private absorbed = 0;
  private readonly runId?: string;
  /** Links a chat span may carry for its producers: the span link limit less one (a RETRY_OF link). */
  private readonly budget: number;
  /** Each agent's latest answered model call and the tool calls its reply asked for, by agentKey(). */
  private readonly replies: Map<string, Reply>;
  /**
   * Each producer's link attributes as last made: a later call that sends the same parts of it gets
   * the same object (the SDK copies a link's attributes at span start), so a turn that sends its
   * conversation again builds a link's seven attributes only when that producer's parts changed.
   */
  private readonly kept = new Map<string, KeptLink>();
  /** The parts of the call chat() linked last, until its span has started (chatStarted puts its part arrays on it). */
  private sent: readonly InputPart[] = [];
  /** Each agent's latest part table (by agentKey()): its next call's table lists what follows the parts they share. */
  private readonly tables = new Map<string, RecordedTable>();

  constructor(init: { runId?: string; linkLimit: number; known?: KnownProducers; restored?: readonly CarriedBy[] }) {
    this.runId = init.runId;
    this.budget = Math.max(0, init.linkLimit - 1);
    this.producers = init.known ? new Map(init.known.producers) : new Map();
    if (init.known && init.known.runs.size > 0) this.runs = new Map(init.known.runs);
    this.replies = init.known ? new Map(init.known.replies) : new Map();
    this.restored = init.restored ?? [];
  }

  /**
   * The links of a model call about to start under `parent`, from its parts (links folded go into
   * `attributes`; its part arrays onto its span: chatStarted). A producer whose span is that parent
   * gets no link (a hop emitted from the chat's own CallLLM stage, or its agent's span standing in
   * for a hop in semantic detail): the parent edge already joins them, the part arrays name the
   * producer, and OTLP-to-Jaeger translation turns a parent that is also linked into a follows-from
   * reference, which leaves the span without a parent in Jaeger.
   */
  chat(parts: readonly InputPart[], attributes: Attributes, parent: SpanContext): Link[] {
    if (this.absorbed < this.restored.length) this.absorbRestored();
    // The call's parts by producer. A map of its own per call: emptying a shared one (Map.clear) makes
    // V8 allocate it a new table each time, twice per call (before and after) against once here.
    const groups = new Map<string, ProducerParts>();
    let newestOutput: string | undefined;
    for (const part of parts) {
      if (!this.linksTo(part)) continue;
      const id = part.producer.id;
      let group = groups.get(id);
      if (group === undefined) {
        // Most producers have one part in a call: its index list is made with it, of that one.
        group = { first: part, indexes: [part.index], chars: part.chars, tokens: part.tokens };
        groups.set(id, group);
      } else {
        group.indexes.push(part.index);
        group.chars += part.chars;
        group.tokens += part.tokens;
      }
      if (part.fingerprint !== undefined) (group.fingerprints ??= []).push(part.fingerprint);
      if ((part.restoredFrom ?? part.origin) === 'model_output') {
        // Only the newest earlier answer is linked: the older ones are reachable through its chain.
        if (newestOutput !== undefined && newestOutput !== id) groups.delete(newestOutput);
        newestOutput = id;
      }
    }
    const links: Link[] = [];
    for (const [id, group] of groups) {
      const link = this.informedBy(id, group);
      if (link && !sameSpan(link.context, parent)) links.push(link);
    }
    this.sent = parts;
    const folded = links.length - this.budget;
    if (folded <= 0) return links;
    // The newest producers win; the older ones stay reachable through the chain of chat links.
    attributes[ATTR_FOOTPRINT_LINEAGE_LINKS_FOLDED] = folded;
    return links.slice(folded);
  }

  /**
   * A model call of `agent` (an agentKey()) started its span: the span stands for the call, and gets
   * the part arrays of the parts chat() was given, after those it shares with the agent's call before.
   * Set on the started span rather than given at its start: the SDK copies start attributes twice
   * (each array sliced each time) and keeps an attribute set later as it is given.
   */
  chatStarted(callId: string, agent: string, span: Span): void {
    const context = span.spanContext();
    this.producers.set(callId, { context });
    if (span.isRecording()) {
      const before = this.tables.get(agent);
      partArrays(this.sent, before, span);
      this.tables.set(agent, { spanId: context.spanId, parts: this.sent });
    } else {
      // An unsampled span records nothing: its arrays are not made, and the agent's next call has no table to share.
      this.tables.delete(agent);
    }
    this.sent = [];
  }

  /** A model call answered: its reply's tool calls are caused by it, and its answer may end the agent's turn. */
  answered(agent: string, callId: string, toolCalls: readonly { id: string }[]): void {
    this.replies.set(agent, { callId, toolCallIds: toolCalls });
  }

  /** The producer id of a tool call (`${callId}:${toolCallId}`) and its CAUSED_BY_GENERATION link, when its asking call is known. */
  tool(agent: string, toolCallId: string): { producer: string; links: Link[] } | undefined {
    const reply = this.replies.get(agent);
    if (!reply || !askedFor(reply, toolCallId)) return undefined;
    const chat = this.producers.get(reply.callId);
    const producer = `${reply.callId}:${toolCallId}`;
    if (!chat) return { producer, links: [] };
    const attributes = { [ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE]: LINK_CAUSED_BY_GENERATION, [ATTR_FOOTPRINT_LINEAGE_PRODUCER]: boundString(reply.callId, MAX_PRODUCER) };
    return { producer, links: [{ context: chat.context, attributes }] };
  }

  /** A tool call's span started: it stands for the call. */
  toolStarted(producer: string, context: SpanContext): void {
    this.producers.set(producer, { context });
  }

  /** A hop was emitted from `context`'s span; `standIn` when that span is its agent's, not a stage's (semantic detail). */
  hop(hopId: string, context: SpanContext, standIn: boolean): void {
    this.producers.set(hopId, standIn ? { context, hop: hopId } : { context });
  }

  /**
   * What the run span says of the chat span of `callId`, the model call whose output became the run's
   * answer (RunOutcome.answeredBy): its span id and model call id, as attributes. Not a link: Jaeger
   * takes a root span's first same-trace link as its parent, which would hang the run span below its own answer.
   */
  answerAttributes(callId: string): Attributes | undefined {
    const chat = this.producers.get(callId);
    if (!chat) return undefined;
    return { [ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID]: chat.context.spanId, [ATTR_FOOTPRINT_LINEAGE_ANSWER_PRODUCER]: boundString(callId, MAX_PRODUCER) };
  }

  /** Every producer span known, oldest first (what a pause or a stored conversation carries on). */
  entries(): IterableIterator<[string, ProducerSpan]> {
    return this.producers.entries();
  }

  /** Each agent's latest reply (what a pause carries, for the tool calls resumed after it). */
  latestReplies(): ReadonlyMap<string, Reply> {
    return this.replies;
  }

  /** Takes the producers of the conversation entries loaded since the last call (a run's own producers win). */
  private absorbRestored(): void {
    const known = knownProducers(this.restored.slice(this.absorbed));
    this.absorbed = this.restored.length;
    for (const [id, span] of known.producers) if (!this.producers.has(id)) this.producers.set(id, span);
    if (known.runs.size > 0) {
      const runs = (this.runs ??= new Map());
      for (const [runId, context] of known.runs) runs.set(runId, context);
    }
  }

  /** A part has a link unless its producer is an ancestor of the chat span (the agent or this run). */
  private linksTo(part: InputPart): boolean {
    if (ANCESTOR_ORIGINS.has(part.restoredFrom ?? part.origin)) return part.producer.kind === 'run' && this.isOtherRun(part.producer.runId);
    if (part.producer.kind === 'member') return false;
    return part.producer.kind !== 'run' || this.isOtherRun(part.producer.runId);
  }

  private isOtherRun(runId: string | undefined): boolean {
    return runId !== undefined && runId !== this.runId;
  }

  /** The INFORMED_BY link to a producer's span (else its run's span, for another run's producer); none when neither is known. */
  private informedBy(id: string, group: ProducerParts): Link | undefined {
    const { first } = group;
    const known = this.producers.get(id);
    const context = known?.context ?? (first.producer.runId === undefined ? undefined : this.runs?.get(first.producer.runId));
    if (!context) return undefined;
    const hop = known?.hop;
    const kept = this.kept.get(id);
    if (kept !== undefined && kept.hop === hop && sameParts(kept.group, group)) return { context, attributes: kept.attributes };
    const attributes: Attributes = {
      [ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE]: LINK_INFORMED_BY,
      [ATTR_FOOTPRINT_LINEAGE_ORIGIN]: first.origin,
      [ATTR_FOOTPRINT_LINEAGE_SLOT]: first.slot,
      [ATTR_FOOTPRINT_LINEAGE_PART_INDEXES]: newest(group.indexes),
      [ATTR_FOOTPRINT_LINEAGE_CHARS]: group.chars,
      [ATTR_FOOTPRINT_LINEAGE_TOKENS]: group.tokens,
      [ATTR_FOOTPRINT_LINEAGE_PRODUCER]: boundString(id, MAX_PRODUCER),
    };
    if (group.fingerprints !== undefined) attributes[ATTR_FOOTPRINT_LINEAGE_FINGERPRINTS] = newest(group.fingerprints);
    if (hop !== undefined) attributes[ATTR_FOOTPRINT_LINEAGE_HOP] = hop;
    this.kept.set(id, { group, hop, attributes });
    return { context, attributes };
  }
}

/** True when two calls sent the same parts of one producer: what its link's attributes are made of. */
function sameParts(a: ProducerParts, b: ProducerParts): boolean {
  return a.first.origin === b.first.origin && a.first.slot === b.first.slot && a.chars === b.chars && a.tokens === b.tokens && sameList(a.indexes, b.indexes) && sameList(a.fingerprints, b.fingerprints);
}

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True when `reply` asked for the tool call `toolCallId`. */
function askedFor(reply: Reply, toolCallId: string): boolean {
  for (const call of reply.toolCallIds) if (call.id === toolCallId) return true;
  return false;
}

/**
 * The part table of a call as parallel arrays on its span: the parts after those it shares with
 * `before` (the same part objects, first to last), of those the newest MAX_PART_ENTRIES.
 */
function partArrays(parts: readonly InputPart[], before: RecordedTable | undefined, span: Span): void {
  const shared = before === undefined ? 0 : sharedParts(before.parts, parts);
  const from = Math.max(shared, parts.length - MAX_PART_ENTRIES);
  const count = parts.length - from;
  const origins = new Array<string>(count);
  const producers = new Array<string>(count);
  const tokens = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const part = parts[from + i]!;
    origins[i] = part.origin;
    producers[i] = boundString(part.producer.id, MAX_PRODUCER);
    tokens[i] = part.tokens;
  }
  span.setAttribute(ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS, origins);
  span.setAttribute(ATTR_FOOTPRINT_LINEAGE_PART_PRODUCERS, producers);
  span.setAttribute(ATTR_FOOTPRINT_LINEAGE_PART_TOKENS, tokens);
  if (shared > 0) {
    span.setAttribute(ATTR_FOOTPRINT_LINEAGE_SHARED_PARTS, shared);
    span.setAttribute(ATTR_FOOTPRINT_LINEAGE_SHARED_SPAN_ID, before!.spanId);
  }
  if (from > shared) span.setAttribute(ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED, from - shared);
}

/** How many of `parts`' first parts are `before`'s first parts, the very same objects. */
function sharedParts(before: readonly InputPart[], parts: readonly InputPart[]): number {
  const most = Math.min(before.length, parts.length);
  let shared = 0;
  while (shared < most && before[shared] === parts[shared]) shared++;
  return shared;
}

/**
 * An agent as its replies are kept: its id where it is mounted, from an event's meta.subflowPath (the
 * same agent in two Parallel branches is two agents; its model and tool calls share one mount).
 */
export function agentKey(agentId: string, subflowPath: readonly string[]): string {
  return subflowPath.length === 0 ? agentId : `${subflowPath.join('/')}/${agentId}`;
}

/** The newest MAX_PART_ENTRIES entries of a link's list. */
function newest<T>(list: T[]): T[] {
  return list.length > MAX_PART_ENTRIES ? list.slice(list.length - MAX_PART_ENTRIES) : list;
}

function sameSpan(a: SpanContext, b: SpanContext): boolean {
  return a.spanId === b.spanId && a.traceId === b.traceId;
}
