/**
 * The walk: from a span backwards along what produced its input (whyProducers.ts), to the run's
 * input. Depth-first with an explicit stack (a hostile chain of 100,000 links does not recurse),
 * each span expanded once (a span two consumers read is one node: the slice is a DAG), an edge back
 * to a span on the current path recorded as a cycle instead of followed, and at most MAX_NODES nodes
 * expanded. The run span, a hop's span and an agent's span end a path: they are where input came
 * from, not calls that read any. Deterministic: links in the order written, then the part table's.
 */
import type { FileSpan } from '../telemetry/index.js';
import { kindOfSpan, missingNode, nodeOfSpan, type WhyEdge, type WhyGraph, type WhyNode, type WhyNodeKind } from './whyGraph.js';
import { HOP_EVENT } from './whyNames.js';
import { producersOf } from './whyProducers.js';
import type { TraceSpans } from './whySpans.js';

/** Nodes a slice expands; the rest are kept as "not walked" nodes and counted. */
export const MAX_NODES = 5_000;

export interface SliceResult {
  graph: WhyGraph;
  /** Linked traces the walk met and that are not read yet (the caller may read them and walk again). */
  unreadTraces: string[];
}

const key = (traceId: string, spanId: string) => `${traceId}/${spanId}`;

export function sliceFrom(start: FileSpan, spans: TraceSpans, run: { runId?: string } = {}): SliceResult {
  const nodes = new Map<string, WhyNode>();
  const edges: WhyEdge[] = [];
  const cycles: { from: string; to: string }[] = [];
  const unread = new Set<string>();
  const onPath = new Set<string>();
  const expanded = new Set<string>();
  type Step = { enter: true; traceId: string; spanId: string; kind: WhyNodeKind; hopId?: string } | { enter: false; at: string };
  const stack: Step[] = [{ enter: true, traceId: start.traceId, spanId: start.spanId, kind: kindOfSpan(start) }];

  const place = (traceId: string, spanId: string, kind: WhyNodeKind, hopId?: string): WhyNode => {
    const at = key(traceId, spanId);
    const known = nodes.get(at);
    if (known) return known;
    const span = spans.get(traceId, spanId);
    let node: WhyNode;
    if (span) {
      node = nodeOfSpan(span, kind === 'hop' ? 'hop' : kindOfSpan(span));
      if (kind === 'hop') node.hop = hopOf(span, hopId);
    } else {
      const state = spans.state(traceId);
      if (state === 'unread') unread.add(traceId);
      node = missingNode(traceId, spanId, state === 'read' ? 'span_absent' : state === 'absent' ? 'trace_absent' : 'trace_not_read', kind);
      if (kind === 'hop' && hopId !== undefined) node.hop = { id: hopId };
    }
    nodes.set(at, node);
    return node;
  };

  while (stack.length > 0) {
    const step = stack.pop()!;
    if (!step.enter) {
      onPath.delete(step.at);
      continue;
    }
    const at = key(step.traceId, step.spanId);
    if (expanded.has(at)) continue;
    const node = place(step.traceId, step.spanId, step.kind, step.hopId);
    const span = spans.get(step.traceId, step.spanId);
    if (!span || node.kind === 'run' || node.kind === 'hop' || node.kind === 'agent') {
      expanded.add(at);
      continue;
    }
    if (expanded.size >= MAX_NODES) {
      node.notWalked = true;
      continue;
    }
    expanded.add(at);
    onPath.add(at);
    stack.push({ enter: false, at });
    const { producers, linksNotFollowed, partsUnseen } = producersOf(span, spans);
    if (linksNotFollowed > 0) node.linksNotFollowed = linksNotFollowed;
    if (partsUnseen > 0) node.partsUnseen = partsUnseen;
    const next: Step[] = [];
    for (const producer of producers) {
      const to = key(producer.traceId, producer.spanId);
      if (onPath.has(to)) {
        cycles.push({ from: span.spanId, to: producer.spanId });
        continue;
      }
      const kind: WhyNodeKind = producer.origin === 'skill' ? 'hop' : producer.origin === 'run_input' ? 'run' : producer.origin === 'instructions' || producer.origin === 'tool_definitions' ? 'agent' : 'span';
      const target = place(producer.traceId, producer.spanId, kind, producer.hopId);
      edges.push({
        from: span.spanId,
        to: producer.spanId,
        linkType: producer.linkType,
        origin: producer.origin,
        partIndexes: producer.partIndexes,
        ...(producer.tokens === undefined ? {} : { tokens: producer.tokens }),
        ...(producer.traceId === span.traceId ? {} : { toTraceId: producer.traceId }),
        ...(producer.inferred ? { inferred: true as const } : {}),
      });
      if (!expanded.has(to)) next.push({ enter: true, traceId: producer.traceId, spanId: producer.spanId, kind: target.kind, hopId: producer.hopId });
    }
    // the first producer is walked first
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  const notWalked = [...nodes.values()].filter((n) => n.notWalked).length;
  return {
    graph: {
      root: start.spanId,
      traceId: start.traceId,
      ...(run.runId === undefined ? {} : { runId: run.runId }),
      nodes: [...nodes.values()],
      edges,
      cycles,
      notWalked,
    },
    unreadTraces: [...unread],
  };
}

/** A hop's span: the hop event it emitted (by hop id when the link names one, else its last). */
function hopOf(span: FileSpan, hopId: string | undefined): NonNullable<WhyNode['hop']> {
  const hops = span.events.filter((e) => HOP_EVENT.test(e.name));
  const event = (hopId === undefined ? undefined : hops.find((e) => Object.values(e.attributes).includes(hopId))) ?? hops.at(-1);
  const field = (name: string) => {
    const value = event?.attributes[`${event.name}.${name}`];
    return typeof value === 'string' ? value : undefined;
  };
  const hop: NonNullable<WhyNode['hop']> = {};
  const id = hopId ?? field('hop_id');
  if (id !== undefined) hop.id = id;
  const to = field('to');
  const from = field('from');
  const cause = field('cause');
  if (to !== undefined) hop.to = to;
  if (from !== undefined) hop.from = from;
  if (cause !== undefined) hop.cause = cause;
  return hop;
}
