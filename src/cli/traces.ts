/**
 * Stored runs, read by streaming: a first pass over the trace files keeps only a small index entry
 * per trace (its root span's name, times and outcome, its span count, its trips), a second pass
 * collects the spans of the one trace to show. So neither view nor the demo ever holds a whole file
 * or folder, only one trace (and at most MAX_TRACE_SPANS of it). A trace without a root span (its root
 * was lost, or never written because a process died) is a fragment: listed as such, never chosen as
 * "the latest run". Nor is a trace that holds no run while one that does is stored: an MCP
 * connection's initialize and tools/list outside any run are traces of their own, and may be the
 * last ones written.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { scanSpans, type FileSpan, type TraceFileProblem } from '../telemetry/index.js';
import type { ViewSpan } from './waterfall.js';

/** Spans of one trace held for the waterfall; the rest are counted, not kept. */
export const MAX_TRACE_SPANS = 20_000;

export interface StoredRun {
  traceId: string;
  /** The root span (no parent), absent for a fragment; runId is its footprint.run.id. */
  root?: { name: string; startMs: number; endMs: number; outcome: string; runId?: string };
  /** Earliest start of any span of the trace (orders fragments). */
  startMs: number;
  spanCount: number;
  trips: string;
  /** Some span of it is a footprint run (carries footprint.run.id). */
  holdsRun: boolean;
}

export interface RunSource {
  /** A trace file, a folder of them, or a list of files (one demo session's). */
  path: string | string[];
  onProblem: (problem: TraceFileProblem) => void;
}

function toViewSpan(span: FileSpan): ViewSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    name: span.name,
    service: typeof span.resource['service.name'] === 'string' ? span.resource['service.name'] : '',
    startMs: span.startMs,
    endMs: span.endMs,
    attributes: span.attributes as Record<string, unknown>,
    events: span.events.map((e) => ({ name: e.name, timeMs: e.timeMs, attributes: e.attributes as Record<string, unknown> })),
    status: statusOf(span),
    statusMessage: span.status.message,
  };
}

function statusOf(span: FileSpan): ViewSpan['status'] {
  return span.status.code === SpanStatusCode.ERROR ? 'error' : span.status.code === SpanStatusCode.OK ? 'ok' : 'unset';
}

async function* spansOf(source: RunSource): AsyncGenerator<FileSpan> {
  for (const path of Array.isArray(source.path) ? source.path : [source.path]) yield* scanSpans(path, { onProblem: source.onProblem });
}

/** Every stored trace, rooted runs and fragments, in start order. */
export async function indexRuns(source: RunSource): Promise<StoredRun[]> {
  const byTrace = new Map<string, StoredRun>();
  for await (const span of spansOf(source)) {
    let run = byTrace.get(span.traceId);
    if (!run) {
      run = { traceId: span.traceId, startMs: span.startMs, spanCount: 0, trips: '', holdsRun: false };
      byTrace.set(span.traceId, run);
    }
    run.spanCount++;
    run.startMs = Math.min(run.startMs, span.startMs);
    const trips = span.attributes['footprint.trip.kinds'];
    if (run.trips === '' && typeof trips === 'string') run.trips = trips;
    if (!run.holdsRun && span.attributes['footprint.run.id'] !== undefined) run.holdsRun = true;
    if (span.parentSpanId === undefined && (!run.root || span.startMs < run.root.startMs)) {
      run.root = {
        name: span.name,
        startMs: span.startMs,
        endMs: span.endMs,
        outcome: String(span.attributes['footprint.run.outcome'] ?? statusOf(span)),
        ...(typeof span.attributes['footprint.run.id'] === 'string' ? { runId: span.attributes['footprint.run.id'] } : {}),
      };
    }
  }
  const runs = [...byTrace.values()];
  return runs.sort((a, b) => (a.root?.startMs ?? a.startMs) - (b.root?.startMs ?? b.startMs));
}

/** The spans of one trace (at most MAX_TRACE_SPANS), and how many there were in all. */
export async function collectTrace(source: RunSource, traceId: string): Promise<{ spans: ViewSpan[]; total: number }> {
  const spans: ViewSpan[] = [];
  let total = 0;
  for await (const span of spansOf(source)) {
    if (span.traceId !== traceId) continue;
    total++;
    if (spans.length < MAX_TRACE_SPANS) spans.push(toViewSpan(span));
  }
  return { spans, total };
}

/**
 * By trace id (or a prefix), by run id (the root span's footprint.run.id), else the latest rooted
 * trace (with a trip, if asked): the latest that holds a run when any does.
 */
export function chooseRun(runs: StoredRun[], want: { trace?: string; run?: string; trips?: boolean }): StoredRun | undefined {
  if (want.run) return runs.find((r) => r.root?.runId === want.run);
  if (want.trace) return runs.find((r) => r.traceId === want.trace || r.traceId.startsWith(want.trace!));
  const candidates = runs.filter((r) => r.root && (!want.trips || r.trips !== ''));
  const ofRuns = candidates.filter((r) => r.holdsRun);
  return (ofRuns.length > 0 ? ofRuns : candidates).at(-1);
}

/**
 * The spans, as read, of the traces named (at most MAX_TRACE_SPANS each; links kept), in one pass;
 * a trace not in the files maps to an empty list. `why` reads a run's trace and the traces its links lead to.
 */
export async function collectFileTraces(source: RunSource, traceIds: readonly string[]): Promise<Map<string, FileSpan[]>> {
  const byTrace = new Map<string, FileSpan[]>(traceIds.map((id) => [id, []]));
  for await (const span of spansOf(source)) {
    const spans = byTrace.get(span.traceId);
    if (spans && spans.length < MAX_TRACE_SPANS) spans.push(span);
  }
  return byTrace;
}

/** The trace that holds a span with this id, if any (the first in file order). */
export async function traceOfSpan(source: RunSource, spanId: string): Promise<string | undefined> {
  for await (const span of spansOf(source)) if (span.spanId === spanId) return span.traceId;
  return undefined;
}
