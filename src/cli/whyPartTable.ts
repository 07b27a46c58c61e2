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
 * The parts all tables read from one set of spans may hold: a hostile file's chain of spans, each
 * sharing every part of the one before, would make them grow as its length squared. A table past it
 * keeps its own parts, not the ones it shares. (A turn of 50 calls sending 1,000 messages each holds 50,000.)
 */
export const MAX_READ_PARTS = 1_000_000;

/** The tables read from one set of spans, by span (null: none), and how many parts they hold. */
interface Reading {
  tables: WeakMap<FileSpan, readonly TablePart[] | null>;
  parts: number;
}

/** A turn's calls share their first parts, so a slice asks for the same tables again and again: each is read once. */
const readings = new WeakMap<TraceSpans, Reading>();

/** The parts of a chat span's table, known ones only, by position; undefined when the span has no part table. */
export function partTableOf(span: FileSpan, spans: TraceSpans): readonly TablePart[] | undefined {
  let reading = readings.get(spans);
  if (reading === undefined) readings.set(spans, (reading = { tables: new WeakMap(), parts: 0 }));
  const read = reading.tables;
  const known = read.get(span);
  if (known !== undefined) return known ?? undefined;
  // The chain of spans whose first parts each shares, newest first, up to one already read or sharing none.
  const chain: FileSpan[] = [];
  const seen = new Set<FileSpan>();
  for (let at: FileSpan | undefined = span; at !== undefined && !read.has(at) && !seen.has(at) && chain.length < MAX_TRACE_SPANS; at = sharedWith(at, spans)) {
    seen.add(at);
    chain.push(at);
  }
  for (let i = chain.length - 1; i >= 0; i--) read.set(chain[i]!, tableOf(chain[i]!, spans, reading) ?? null);
  return read.get(span) ?? undefined;
}

/** One span's table, read after the table of the span it shares parts with (when that span is there). */
function tableOf(span: FileSpan, spans: TraceSpans, reading: Reading): TablePart[] | undefined {
  const origins = listOf(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS]);
  if (origins === undefined) return undefined;
  const producers = listOf(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PART_PRODUCERS]) ?? [];
  const tokens = listOf(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PART_TOKENS]) ?? [];
  const shared = count(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_SHARED_PARTS]);
  const folded = count(span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED]);
  const table: TablePart[] = [];
  if (shared > 0) {
    const before = sharedWith(span, spans);
    const theirs = before === undefined ? undefined : reading.tables.get(before);
    if (theirs && reading.parts + theirs.length <= MAX_READ_PARTS) for (const part of theirs) if (part.position < shared) table.push(part);
  }
  const first = shared + folded;
  origins.forEach((origin, i) => table.push({ position: first + i, origin, producer: producers[i], tokens: tokens[i] }));
  reading.parts += table.length;
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
