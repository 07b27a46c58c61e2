/**
 * A run's producer spans carried past the run: into a pause's checkpoint (so the resumed run, in any
 * process, links to the spans before the pause) and into each entry a stored conversation appends (so
 * the next run of the conversation links across traces). Plain JSON, W3C traceparents, bounded both
 * ways: the newest MAX_CARRIED producers are written, and what is read back is untrusted (a checkpoint
 * or a database row), so only well-formed entries are kept, at most MAX_RESTORED in all. The types of
 * what is carried live here, so lineage.ts imports this file and not the other way round.
 */
import type { SpanContext } from '@opentelemetry/api';
import { formatTraceparent, parseTraceparent } from '../encoding/index.js';

/** The span that stands for a producer; `hop` when it is a stand-in for a hop (semantic detail: the invoke_agent span). */
export interface ProducerSpan {
  context: SpanContext;
  hop?: string;
}

/** An agent's latest answered model call and the tool calls its reply asked for. */
export interface Reply {
  callId: string;
  toolCallIds: readonly { id: string }[];
}

/** What a run knows of producers outside it when it starts: the run before its pause, stored conversations' runs. */
export interface KnownProducers {
  /** By producer id. */
  producers: ReadonlyMap<string, ProducerSpan>;
  /** Each earlier run's span, by run id: the link target of a producer of that run whose own span is not known. */
  runs: ReadonlyMap<string, SpanContext>;
  /** The replies whose tool calls were still to run at a pause (a resumed tool call is caused by its reply), by agent id. */
  replies: ReadonlyMap<string, Reply>;
}


/** The key of the lineage in an instrument's carry. */
export const CARRY_LINEAGE = 'footprint-otel.lineage';
/** Producers one run carries on: its newest. */
export const MAX_CARRIED = 256;
/** Producers a run takes from what it resumes or continues: the newest. */
export const MAX_RESTORED = 1024;
/** A producer id longer than this is not one of ours. */
const MAX_ID = 256;
/** Tool calls of one carried reply, at most (a reply's cap is far lower). */
const MAX_REPLY_CALLS = 128;

/** A carry and the run it comes from (none: a pause's carry, of this run). */
export interface CarriedBy {
  runId?: string;
  carry: Record<string, unknown>;
}

/** What is carried: the run span, and each producer's span by id (`hops`: the ids whose span is a hop's stand-in). */
interface LineageCarry {
  run: string;
  producers: Record<string, string>;
  hops: string[];
  /** Each agent's latest reply: its call id and the tool call ids it asked for. */
  replies: Record<string, { callId: string; toolCallIds: string[] }>;
}

/** The carry of a run: its span and its newest producers. */
export function lineageCarry(run: SpanContext, producers: Iterable<[string, ProducerSpan]>, latest: ReadonlyMap<string, Reply>): Record<string, unknown> {
  const all = [...producers];
  const carried: Record<string, string> = {};
  const hops: string[] = [];
  for (const [id, span] of all.slice(Math.max(0, all.length - MAX_CARRIED))) {
    // An id read back longer than MAX_ID is dropped: none is written.
    if (id.length > MAX_ID) continue;
    carried[id] = formatTraceparent(span.context);
    if (span.hop !== undefined) hops.push(id);
  }
  const replies: LineageCarry['replies'] = {};
  for (const [agentId, reply] of latest) replies[agentId] = { callId: reply.callId, toolCallIds: reply.toolCallIds.map((call) => call.id) };
  const carry: LineageCarry = { run: formatTraceparent(run), producers: carried, hops, replies };
  return { [CARRY_LINEAGE]: carry };
}

/**
 * The producers known from carries, oldest first: a pause's carry (one; its run is this run), or a
 * stored conversation's entries (oldest first, each with its run id).
 */
export function knownProducers(carries: readonly CarriedBy[]): KnownProducers {
  const producers = new Map<string, ProducerSpan>();
  const runs = new Map<string, SpanContext>();
  const replies = new Map<string, Reply>();
  for (let i = carries.length - 1; i >= 0 && producers.size < MAX_RESTORED; i--) {
    const { runId, carry } = carries[i]!;
    const value = carry[CARRY_LINEAGE];
    if (typeof value !== 'object' || value === null) continue;
    const { run, producers: carried, hops, replies: latest } = value as Partial<Record<keyof LineageCarry, unknown>>;
    const runSpan = parseTraceparent(run);
    readReplies(latest, replies);
    if (runId !== undefined && runSpan && !runs.has(runId)) runs.set(runId, runSpan);
    if (typeof carried !== 'object' || carried === null) continue;
    const standIns = new Set(Array.isArray(hops) ? hops.filter((hop): hop is string => typeof hop === 'string') : []);
    const entries = Object.entries(carried);
    for (let j = entries.length - 1; j >= 0 && producers.size < MAX_RESTORED; j--) {
      const [id, traceparent] = entries[j]!;
      const context = id.length <= MAX_ID ? parseTraceparent(traceparent) : undefined;
      if (!context || producers.has(id)) continue;
      producers.set(id, standIns.has(id) ? { context, hop: id } : { context });
    }
  }
  // Read newest first (the bound keeps the newest); kept oldest first, as a run's own producers are.
  return { producers: new Map([...producers].reverse()), runs, replies };
}

/** The well-formed carried replies, into `into` (a newer carry's reply of an agent wins). */
function readReplies(value: unknown, into: Map<string, Reply>): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [agentId, reply] of Object.entries(value)) {
    if (into.has(agentId) || agentId.length > MAX_ID || typeof reply !== 'object' || reply === null) continue;
    const { callId, toolCallIds } = reply as { callId?: unknown; toolCallIds?: unknown };
    if (typeof callId !== 'string' || callId.length > MAX_ID || !Array.isArray(toolCallIds)) continue;
    const ids = toolCallIds.slice(0, MAX_REPLY_CALLS).filter((id): id is string => typeof id === 'string' && id.length <= MAX_ID);
    into.set(agentId, { callId, toolCallIds: ids.map((id) => ({ id })) });
  }
}
