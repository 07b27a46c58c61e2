/**
 * The spans a slice may visit: the traces read so far (the run's own, then the ones its links lead
 * to), by trace and span id, and what is known of the traces not read: absent from the source, or
 * not read yet. Each trace holds at most MAX_TRACE_SPANS spans (traces.ts), as view does.
 */
import type { FileSpan } from '../telemetry/index.js';
import { MAX_TRACE_SPANS } from './traces.js';

export type TraceState = 'read' | 'absent' | 'unread';

export class TraceSpans {
  private readonly byTrace = new Map<string, Map<string, FileSpan>>();
  private readonly absent = new Set<string>();

  /** Adds a trace's spans as read (an empty list marks the trace absent). */
  addTrace(traceId: string, spans: Iterable<FileSpan>): void {
    const byId = new Map<string, FileSpan>();
    for (const span of spans) if (byId.size < MAX_TRACE_SPANS) byId.set(span.spanId, span);
    if (byId.size === 0) this.absent.add(traceId);
    else this.byTrace.set(traceId, byId);
  }

  state(traceId: string): TraceState {
    return this.byTrace.has(traceId) ? 'read' : this.absent.has(traceId) ? 'absent' : 'unread';
  }

  get(traceId: string, spanId: string): FileSpan | undefined {
    return this.byTrace.get(traceId)?.get(spanId);
  }

  /** The spans of a read trace, in the order read. */
  spansOf(traceId: string): FileSpan[] {
    return [...(this.byTrace.get(traceId)?.values() ?? [])];
  }

  /**
   * The nearest ancestor of a span that passes `test` (the span itself excluded), by parent ids
   * within its trace; bounded, so a parent cycle in a hostile file ends.
   */
  ancestor(span: FileSpan, test: (span: FileSpan) => boolean): FileSpan | undefined {
    const trace = this.byTrace.get(span.traceId);
    let current = span;
    for (let steps = 0; steps < MAX_TRACE_SPANS && current.parentSpanId !== undefined; steps++) {
      const parent = trace?.get(current.parentSpanId);
      if (!parent || parent === span) return undefined;
      if (test(parent)) return parent;
      current = parent;
    }
    return undefined;
  }
}
