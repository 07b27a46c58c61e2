/**
 * `footprint-otel why [path] [--jaeger URL] [--trace ID | --run RUN_ID] [--span SPAN_ID] [--json]`:
 * why the agent answered what it did. From the run's answer (the chat span its run span names in
 * footprint.lineage.answer.span_id, else its last chat span) or from --span, walks backwards along the lineage
 * links (issue #36) to the spans that produced each part of the input, back to the run's input, and
 * prints that slice as a tree (whyTree.ts) or as a DAG in JSON (--json). Linked traces that are not the
 * run's (a conversation's earlier run, a checkpoint's) are read too, at most MAX_LINKED_TRACES of
 * them. Asks no model and changes nothing: the same files give the same answer.
 */
import { semconv } from '../index.js';
import type { FileSpan } from '../telemetry/index.js';
import { CliError } from './args.js';
import type { TerminalLine } from './terminal.js';
import { jsonLines } from './whyJson.js';
import { kindOfSpan } from './whyGraph.js';
import { fileSource } from './whyFiles.js';
import { jaegerSource } from './whyJaeger.js';
import { sliceFrom, type SliceResult } from './whySlice.js';
import { TraceSpans } from './whySpans.js';
import type { WhySource } from './whySource.js';
import { renderSlice } from './whyTree.js';

/** Traces read besides the run's own, for links that cross traces. */
export const MAX_LINKED_TRACES = 16;

export interface WhyOptions {
  path: string;
  jaeger?: string;
  trace?: string;
  run?: string;
  span?: string;
  json: boolean;
}

export interface WhyResult {
  /** For stdout, through terminal.ts (the JSON too: it holds no control character). */
  lines: TerminalLine[];
  warnings: string[];
}

export async function whyCommand(options: WhyOptions): Promise<WhyResult> {
  const source: WhySource = options.jaeger !== undefined ? jaegerSource(options.jaeger) : await fileSource(options.path);
  const traceId = await source.chooseTrace(options);
  const spans = new TraceSpans();
  spans.addTrace(traceId, (await source.readTraces([traceId])).get(traceId) ?? []);
  const { start, runId } = startOf(spans, traceId, options.span, source.where);
  const result = await sliceAcrossTraces(start, spans, source, runId);
  const graph = result.graph;
  if (options.json) return { lines: jsonLines(graph), warnings: source.warnings() };
  const what = start.spanId === options.span ? `span ${start.spanId}` : 'the answer';
  const heading = `why: ${runId === undefined ? '' : `run ${runId}, `}trace ${traceId} from ${source.where}: ${what} ← what its input came from`;
  return { lines: [heading, ...renderSlice(graph)], warnings: source.warnings() };
}

/** Walks; reads the linked traces the walk met and walks again, until none is new or the bound is reached. */
async function sliceAcrossTraces(start: FileSpan, spans: TraceSpans, source: WhySource, runId: string | undefined): Promise<SliceResult> {
  let result = sliceFrom(start, spans, { runId });
  let read = 0;
  while (result.unreadTraces.length > 0 && read < MAX_LINKED_TRACES) {
    const wanted = result.unreadTraces.slice(0, MAX_LINKED_TRACES - read);
    read += wanted.length;
    const traces = await source.readTraces(wanted);
    for (const id of wanted) spans.addTrace(id, traces.get(id) ?? []);
    result = sliceFrom(start, spans, { runId });
  }
  return result;
}

/**
 * The span to walk back from, and the run's id: --span, else the chat span the run span names as its
 * answer's (footprint.lineage.answer.span_id), else the trace's last chat span to end.
 */
export function startOf(spans: TraceSpans, traceId: string, spanId: string | undefined, where: string): { start: FileSpan; runId?: string } {
  const all = spans.spansOf(traceId);
  const root = all.find((s) => s.parentSpanId === undefined && s.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] !== undefined) ?? all.find((s) => s.parentSpanId === undefined);
  const runIdValue = root?.attributes[semconv.ATTR_FOOTPRINT_RUN_ID];
  const runId = typeof runIdValue === 'string' ? runIdValue : undefined;
  if (spanId !== undefined && spanId !== root?.spanId) {
    const span = spans.get(traceId, spanId);
    if (!span) throw new CliError(`no span ${spanId} in trace ${traceId} in ${where}`);
    return { start: span, runId };
  }
  const answered = answerOf(all, root, traceId, spans);
  if (answered) return { start: answered, runId };
  const chats = all.filter((s) => kindOfSpan(s) === 'chat');
  const last = chats.reduce<FileSpan | undefined>((latest, s) => (!latest || s.endMs > latest.endMs ? s : latest), undefined);
  if (!last) throw new CliError(`no model call in trace ${traceId} in ${where}: no answer to walk back from`);
  return { start: last, runId };
}

/**
 * The chat span that gave the run's answer, as the run's span names it: the root, or a resumed
 * segment of the same run (same run id, in the trace), the newest to end that names one.
 */
function answerOf(all: readonly FileSpan[], root: FileSpan | undefined, traceId: string, spans: TraceSpans): FileSpan | undefined {
  const runId = root?.attributes[semconv.ATTR_FOOTPRINT_RUN_ID];
  let newest: FileSpan | undefined;
  for (const span of all) {
    if (span !== root && (runId === undefined || span.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] !== runId)) continue;
    if (typeof span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID] !== 'string') continue;
    if (!newest || span.endMs > newest.endMs) newest = span;
  }
  const spanId = newest?.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID];
  return typeof spanId === 'string' ? spans.get(traceId, spanId) : undefined;
}
