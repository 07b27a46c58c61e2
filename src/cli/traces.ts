/**
 * Stored spans grouped into runs (one trace each), and the choice of which run to show: by trace id,
 * the latest, or the latest with a loop-guard trip.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { FileSpan } from '../telemetry/index.js';
import type { ViewSpan } from './waterfall.js';

export interface StoredRun {
  traceId: string;
  root: ViewSpan;
  spans: ViewSpan[];
  trips: string;
}

export function toViewSpan(span: FileSpan): ViewSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    name: span.name,
    startMs: span.startMs,
    endMs: span.endMs,
    attributes: span.attributes as Record<string, unknown>,
    events: span.events.map((e) => ({ name: e.name, timeMs: e.timeMs, attributes: e.attributes as Record<string, unknown> })),
    status: span.status.code === SpanStatusCode.ERROR ? 'error' : span.status.code === SpanStatusCode.OK ? 'ok' : 'unset',
    statusMessage: span.status.message,
  };
}

/** Groups spans by trace; a run's root is its span without a parent inside the trace. */
export function groupRuns(spans: ViewSpan[]): StoredRun[] {
  const byTrace = new Map<string, ViewSpan[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceId) ?? [];
    list.push(span);
    byTrace.set(span.traceId, list);
  }
  const runs: StoredRun[] = [];
  for (const [traceId, list] of byTrace) {
    const ids = new Set(list.map((s) => s.spanId));
    const roots = list.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId)).sort((a, b) => a.startMs - b.startMs);
    const root = roots[0]!;
    const trips = list.map((s) => s.attributes['footprint.trip.kinds']).find((v) => typeof v === 'string' && v !== '');
    runs.push({ traceId, root, spans: list, trips: typeof trips === 'string' ? trips : '' });
  }
  return runs.sort((a, b) => a.root.startMs - b.root.startMs);
}

export function chooseRun(runs: StoredRun[], want: { trace?: string; trips?: boolean }): StoredRun | undefined {
  if (want.trace) return runs.find((r) => r.traceId === want.trace || r.traceId.startsWith(want.trace!));
  const candidates = want.trips ? runs.filter((r) => r.trips !== '') : runs;
  return candidates.at(-1);
}
