/**
 * Lineage links whose attributes a backend dropped, read by what they point at. Jaeger's storage
 * keeps a link as a reference (trace, span, `opentracing.ref_type`) and nothing else: no
 * gen_ai.attribution.link_type, origin or parts. The spans keep theirs, and a chat span's part
 * table (footprint.lineage.part.*) names each part's producer, so a bare link is matched to the
 * producer its target is: a chat span by its call id, an execute_tool span by `callId:toolCallId`
 * (the call id of the chat span its own link points at), a hop's span by the hop ids of its hop
 * events. Its origin and parts are then the part table's; the link type follows from the two spans:
 * execute_tool → chat is CAUSED_BY_GENERATION, chat → a failed chat span that is no producer of its
 * parts is RETRY_OF, the rest INFORMED_BY; a link whose target is not there stays `unknown`. Every
 * edge made so is marked inferred.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { semconv } from '../index.js';
import type { FileSpan, FileSpanLink } from '../telemetry/index.js';
import { HOP_EVENT } from './whyNames.js';
import { partTableOf } from './whyPartTable.js';
import type { TraceSpans } from './whySpans.js';

/** Jaeger's one attribute on a link it read back from a reference. */
const REF_TYPE = 'opentracing.ref_type';

/** A link that carries nothing but (maybe) Jaeger's reference type: its lineage attributes were dropped. */
export function isBareLink(link: FileSpanLink): boolean {
  const keys = Object.keys(link.attributes);
  return keys.length === 0 || (keys.length === 1 && keys[0] === REF_TYPE);
}

export interface InferredLink {
  linkType: string;
  origin: string;
  partIndexes: number[];
  tokens?: number;
}

/**
 * What a bare link of `span` means, from the spans at both ends: `unknown` when its target is not
 * there to say; undefined (not lineage) from a span that is no chat or tool span (a run span's links,
 * to the run that paused and its resumer, are not lineage).
 */
export function inferLink(span: FileSpan, link: FileSpanLink, spans: TraceSpans): InferredLink | undefined {
  const from = operation(span);
  if (from !== 'chat' && from !== 'execute_tool') return undefined;
  const target = spans.get(link.traceId, link.spanId);
  if (!target) return { linkType: 'unknown', origin: 'unknown', partIndexes: [] };
  const to = operation(target);
  if (from === 'execute_tool' && to === 'chat') return { linkType: semconv.LINK_CAUSED_BY_GENERATION, origin: 'generation', partIndexes: [] };
  if (from !== 'chat') return { linkType: 'unknown', origin: 'unknown', partIndexes: [] };
  const ids = producerIdsOf(target, spans);
  const parts = partsOf(span, spans, ids);
  if (parts) return { linkType: semconv.LINK_INFORMED_BY, ...parts };
  if (to === 'chat' && target.status.code === SpanStatusCode.ERROR) return { linkType: semconv.LINK_RETRY_OF, origin: 'retry', partIndexes: [] };
  return { linkType: semconv.LINK_INFORMED_BY, origin: 'unknown', partIndexes: [] };
}

function operation(span: FileSpan): unknown {
  return span.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME];
}

/** The producer ids a span stands for in a part table. */
function producerIdsOf(target: FileSpan, spans: TraceSpans): Set<string> {
  const ids = new Set<string>();
  const callId = target.attributes[semconv.ATTR_FOOTPRINT_LLM_CALL_ID];
  if (typeof callId === 'string') ids.add(callId);
  const toolCallId = target.attributes[semconv.ATTR_GEN_AI_TOOL_CALL_ID];
  if (typeof toolCallId === 'string') {
    for (const link of target.links) {
      const asker = spans.get(link.traceId, link.spanId)?.attributes[semconv.ATTR_FOOTPRINT_LLM_CALL_ID];
      if (typeof asker === 'string') ids.add(`${asker}:${toolCallId}`);
    }
  }
  for (const event of target.events) {
    if (!HOP_EVENT.test(event.name)) continue;
    const hopId = event.attributes[`${event.name}.hop_id`];
    if (typeof hopId === 'string') ids.add(hopId);
  }
  return ids;
}

/** The parts of the span's part table those producers made: the first one's origin, their positions, their tokens. */
function partsOf(span: FileSpan, spans: TraceSpans, ids: Set<string>): { origin: string; partIndexes: number[]; tokens?: number } | undefined {
  const table = partTableOf(span, spans);
  if (table === undefined) return undefined;
  let origin: string | undefined;
  const partIndexes: number[] = [];
  let sum: number | undefined;
  for (const part of table) {
    if (typeof part.producer !== 'string' || !ids.has(part.producer)) continue;
    origin ??= typeof part.origin === 'string' ? part.origin : 'unknown';
    partIndexes.push(part.position);
    if (typeof part.tokens === 'number') sum = (sum ?? 0) + part.tokens;
  }
  return origin === undefined ? undefined : { origin, partIndexes, ...(sum === undefined ? {} : { tokens: sum }) };
}
