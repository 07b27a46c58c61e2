/**
 * A chat span's part table as `why` reads it (docs/lineage.md, The part table): the parts it shares
 * with its agent's call before (footprint.lineage.shared.parts, read off that span, which may share
 * its own first parts with the call before it), then the parts folded out (not known), then the parts
 * its arrays list. Each part keeps its position among all the parts the call was sent, so a link's
 * parts and the table's are counted the same way whichever span lists them. A part whose span is not
 * there (a trace still being written, a file cut short) is left out, as a folded one is.
 */
import { semconv } from '../index.js';
import type { FileAttributeValue, FileSpan } from '../telemetry/index.js';
import { listOf } from './whyLists.js';
import { MAX_TRACE_SPANS } from './traces.js';
import type { TraceSpans } from './whySpans.js';

/** One part of a call as its table gives it (values as read: a hostile file's may be of any type). */
export interface TablePart {
  position: number;
  origin: FileAttributeValue | undefined;
  producer: FileAttributeValue | undefined;
  tokens: FileAttributeValue | undefined;
}

/**
 * Tables read, by the spans read and the span (null: none): a turn's calls share their first parts, so
 * a slice asks for the same table again and again.
 */
const readIn = new WeakMap<TraceSpans, WeakMap<FileSpan, readonly TablePart[] | null>>();

/** The parts of a chat span's table, known ones only, by position; undefined when the span has no part table. */
export function partTableOf(span: FileSpan, spans: TraceSpans): readonly TablePart[] | undefined {
  let read = readIn.get(spans);
  if (read === undefined) readIn.set(spans, (read = new WeakMap()));
  const known = read.get(span);
  if (known !== undefined) return known ?? undefined;
  // The chain of spans whose first parts each shares, newest first, up to one already read or sharing none.
  const chain: FileSpan[] = [];
  const seen = new Set<FileSpan>();
  for (let at: FileSpan | undefined = span; at !== undefined && !read.has(at) && !seen.has(at) && chain.length < MAX_TRACE_SPANS; at = sharedWith(at, spans)) {
    seen.add(at);
    chain.push(at);
  }
  for (let i = chain.length - 1; i >= 0; i--) read.set(chain[i]!, tableOf(chain[i]!, spans, read) ?? null);
  return read.get(span) ?? undefined;
}

/** One span's table, the table of the span it shares parts with already read (or not there). */
function tableOf(span: FileSpan, spans: TraceSpans, read: WeakMap<FileSpan, readonly TablePart[] | null>): TablePart[] | undefined {
  const origins = listOf(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS]);
  if (origins === undefined) return undefined;
  const producers = listOf(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PART_PRODUCERS]) ?? [];
  const tokens = listOf(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PART_TOKENS]) ?? [];
  const shared = count(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_SHARED_PARTS]);
  const folded = count(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED]);
  const table: TablePart[] = [];
  if (shared > 0) {
    const before = sharedWith(span, spans);
    const theirs = before === undefined ? undefined : read.get(before);
    if (theirs) for (const part of theirs) if (part.position < shared) table.push(part);
  }
  const first = shared + folded;
  origins.forEach((origin, i) => table.push({ position: first + i, origin, producer: producers[i], tokens: tokens[i] }));
  return table;
}

/** The span whose first parts `span` shares, when it says so and that span is there. */
function sharedWith(span: FileSpan, spans: TraceSpans): FileSpan | undefined {
  const spanId = span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_SHARED_SPAN_ID];
  if (typeof spanId !== 'string' || count(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_SHARED_PARTS]) === 0) return undefined;
  return spans.get(span.traceId, spanId);
}

/** A count as written: a non-negative safe integer, else 0 (a hostile or broken file's). */
function count(value: FileAttributeValue | undefined): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}
