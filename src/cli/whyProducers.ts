/**
 * What produced a span's input, read off the span: its lineage links (gen_ai.attribution.link_type
 * INFORMED_BY, CAUSED_BY_GENERATION, RETRY_OF; links of other meanings are not lineage and are
 * passed over; a link a backend stripped of its attributes is read by what it points at,
 * whyBareLinks.ts), and, for a chat span, the parts its part table names that have no link because
 * their producer is an ancestor: the run's input (the run span, or the tool call a nested runner was
 * started by), the agent's instructions and tool list (its invoke_agent span), and any other part whose
 * producer no link names and an ancestor is: the skill of a hop its own CallLLM stage emitted (full
 * detail) or its agent's span stands in for (semantic detail), the run's input restored from a checkpoint.
 */
import { semconv } from '../index.js';
import type { FileAttributeValue, FileSpan } from '../telemetry/index.js';
import { inferLink, isBareLink } from './whyBareLinks.js';
import { listOf } from './whyLists.js';
import { HOP_EVENT } from './whyNames.js';
import { partTableOf } from './whyPartTable.js';
import type { TraceSpans } from './whySpans.js';

/** Links of one span followed; a hostile span with more has the rest counted, not followed. */
export const MAX_LINKS_PER_SPAN = 256;

export interface ProducerRef {
  traceId: string;
  spanId: string;
  linkType: string | null;
  origin: string;
  partIndexes: number[];
  tokens?: number;
  /** On a link to a hop's span (or its stand-in): the hop id. */
  hopId?: string;
  /** Read off the spans at both ends: the link's own attributes were dropped (whyBareLinks.ts). */
  inferred?: true;
}

const LINEAGE_LINK_TYPES = new Set([semconv.LINK_INFORMED_BY, semconv.LINK_CAUSED_BY_GENERATION, semconv.LINK_RETRY_OF]);
/** Origins a chat span has no link for: their producer is one of its ancestors. */
const ANCESTOR_ORIGINS = new Set(['run_input', 'instructions', 'tool_definitions']);

export function producersOf(span: FileSpan, spans: TraceSpans): { producers: ProducerRef[]; linksNotFollowed: number; partsUnseen: number } {
  const producers: ProducerRef[] = [];
  /** Producer ids the followed links name: their parts are not looked for among the ancestors. */
  const linked = new Set<string>();
  let followed = 0;
  let notFollowed = 0;
  for (const link of span.links) {
    const linkType = link.attributes[semconv.ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE];
    const bare = isBareLink(link);
    if (!bare && (typeof linkType !== 'string' || !LINEAGE_LINK_TYPES.has(linkType))) continue;
    if (followed === MAX_LINKS_PER_SPAN) {
      notFollowed++;
      continue;
    }
    if (bare) {
      const inferred = inferLink(span, link, spans);
      if (!inferred) continue;
      followed++;
      const positions = new Set(inferred.partIndexes);
      for (const part of partTableOf(span, spans) ?? []) if (positions.has(part.position) && typeof part.producer === 'string') linked.add(part.producer);
      producers.push({ traceId: link.traceId, spanId: link.spanId, inferred: true, ...inferred });
      continue;
    }
    followed++;
    const producerId = link.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PRODUCER];
    if (typeof producerId === 'string') linked.add(producerId);
    const origin = link.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ORIGIN];
    const tokens = link.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_TOKENS];
    const hopId = link.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_HOP];
    producers.push({
      traceId: link.traceId,
      spanId: link.spanId,
      linkType: linkType as string,
      origin: typeof origin === 'string' ? origin : linkType === semconv.LINK_CAUSED_BY_GENERATION ? 'generation' : linkType === semconv.LINK_RETRY_OF ? 'retry' : 'unknown',
      partIndexes: integers(link.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PART_INDEXES]),
      ...(typeof tokens === 'number' ? { tokens } : {}),
      ...(typeof hopId === 'string' ? { hopId } : {}),
    });
  }
  const { refs, unseen } = ancestorParts(span, spans, linked);
  producers.push(...refs);
  return { producers, linksNotFollowed: notFollowed, partsUnseen: unseen };
}

/**
 * The part table's parts whose producer is an ancestor, one edge per origin, to that ancestor; and how
 * many of the run's input, instructions and tool list have no ancestor here to come from (a trace still
 * being written: its run and agent spans end last).
 */
function ancestorParts(span: FileSpan, spans: TraceSpans, linked: ReadonlySet<string>): { refs: ProducerRef[]; unseen: number } {
  const table = partTableOf(span, spans);
  if (table === undefined) return { refs: [], unseen: 0 };
  const byOrigin = new Map<string, ProducerRef>();
  let unseen = 0;
  for (const { position, origin, producer: named, tokens: partTokens } of table) {
    if (typeof origin !== 'string') continue;
    const producer = typeof named === 'string' ? named : '';
    let target: FileSpan | undefined;
    if (ANCESTOR_ORIGINS.has(origin)) target = ancestorProducer(span, spans, origin, producer);
    else if (producer !== '' && !linked.has(producer)) target = ancestorNamed(span, spans, producer);
    if (!target) {
      if (ANCESTOR_ORIGINS.has(origin)) unseen++;
      continue;
    }
    const key = `${origin}\u0000${target.spanId}`;
    let ref = byOrigin.get(key);
    if (!ref) {
      ref = { traceId: target.traceId, spanId: target.spanId, linkType: null, origin, partIndexes: [], ...(origin === 'skill' ? { hopId: producer } : {}) };
      byOrigin.set(key, ref);
    }
    ref.partIndexes.push(position);
    if (typeof partTokens === 'number') ref.tokens = (ref.tokens ?? 0) + partTokens;
  }
  return { refs: [...byOrigin.values()], unseen };
}

/**
 * The ancestor that produced a part without a link: the agent (invoke_agent) for its instructions
 * and tools; for the run's input, the tool call that started a nested runner (producer
 * `callId:toolCallId`), else the run span (the nearest ancestor with a run id).
 */
function ancestorProducer(span: FileSpan, spans: TraceSpans, origin: string, producer: string): FileSpan | undefined {
  const run = (s: FileSpan) => s.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] !== undefined;
  if (origin !== 'run_input') {
    return spans.ancestor(span, (s) => s.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME] === 'invoke_agent') ?? spans.ancestor(span, run);
  }
  const toolCallId = producer.includes(':') ? producer.slice(producer.indexOf(':') + 1) : undefined;
  if (toolCallId !== undefined) {
    const tool = spans.ancestor(span, (s) => s.attributes[semconv.ATTR_GEN_AI_TOOL_CALL_ID] === toolCallId);
    if (tool) return tool;
  }
  return spans.ancestor(span, run);
}

/**
 * The ancestor that is a producer no link names: the span that emitted the hop (a hop event with that
 * hop id: the call's own CallLLM stage, or the agent's span standing in for it), or the run span of
 * that run id (a checkpoint's restored run input).
 */
function ancestorNamed(span: FileSpan, spans: TraceSpans, producer: string): FileSpan | undefined {
  return spans.ancestor(
    span,
    (s) => s.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] === producer || s.events.some((e) => HOP_EVENT.test(e.name) && e.attributes[`${e.name}.hop_id`] === producer),
  );
}

function integers(value: FileAttributeValue | undefined): number[] {
  return (listOf(value) ?? []).filter((v): v is number => typeof v === 'number' && Number.isInteger(v));
}
