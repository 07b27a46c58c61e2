/**
 * Undoes what Jaeger's span model does to a root span with a link. That model keeps a span's links
 * as references (without their attributes), and takes as a span's parent its first CHILD_OF
 * reference, else its first FOLLOWS_FROM reference in the same trace (jaeger
 * `model.Span.ParentSpanID`); converted back to OTLP (/api/v3), the run span's `answer` link is also
 * its parent: the chat span that gave the answer, a span below it, so the run span's parent chain goes
 * round. Such a span is a root again here, with a link to that chat span (kept, or put back, bare: the
 * walk reads a bare link by what it points at, whyBareLinks.ts). Only a span with a run id is
 * restored: the spans below it keep their parents (a hostile file's other cycles are bounded where
 * parents are walked).
 */
import { semconv } from '../index.js';
import type { FileSpan } from '../telemetry/index.js';

export function restoreLinkedRoots(spans: FileSpan[]): FileSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  return spans.map((span) => {
    if (span.parentSpanId === undefined || span.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] === undefined || !parentChainReturns(span, byId)) return span;
    const { parentSpanId, ...root } = span;
    if (span.links.some((link) => link.traceId === span.traceId && link.spanId === parentSpanId)) return root;
    return { ...root, links: [{ traceId: span.traceId, spanId: parentSpanId, attributes: {} }, ...span.links] };
  });
}

/** The span's parent chain comes back to it (bounded by the trace's size). */
function parentChainReturns(span: FileSpan, byId: Map<string, FileSpan>): boolean {
  let current = byId.get(span.parentSpanId!);
  for (let steps = 0; current && steps <= byId.size; steps++) {
    if (current === span) return true;
    current = current.parentSpanId === undefined ? undefined : byId.get(current.parentSpanId);
  }
  return false;
}
