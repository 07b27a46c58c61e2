/**
 * The terminal waterfall of one trace: spans indented by parent, a bar placed on the run's time axis,
 * the duration, a streamed model call's first chunk (a mark in its bar, and the time to it), the
 * cost of each LLM call, and span events (route decisions, hops, trips, escalations) inline under
 * their span. Input is a list of spans of one trace, from the in-memory SDK or read back from the
 * OTLP-JSON telemetry files. Its lines hold outside text as it is; colours are segments, and
 * terminal.ts escapes and colours them on the way out. A trace that spans services (an MCP server's
 * spans under the agent's tool call) ends the line of every span from another service than the
 * root's with that service, `[name]`: after the duration, where it takes nothing from the span's own
 * name (deep in the tree, a service in front of the name left no room for the name).
 */
import { semconv } from '../index.js';
import type { Color, Segment, TerminalLine } from './terminal.js';

export interface ViewSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** service.name of the process that recorded it ('' when unknown). */
  service?: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  events: { name: string; timeMs: number; attributes: Record<string, unknown> }[];
  status: 'ok' | 'error' | 'unset';
  statusMessage?: string;
}

export interface WaterfallOptions {
  width?: number;
  /** Show every stage span (default) or only the semantic ones (run, agents, workflows, chat, tools). */
  eventsFilter?: (name: string) => boolean;
  /** How many spans the trace has, when only some of them were read (counted as not drawn). */
  total?: number;
}

/** The span events a waterfall draws, under either spelling of the semconv switch (route.hop/route.trip/agent.route_decided: the v1.41 mode's). */
const SHOWN_EVENTS =
  /^footprint\.(composition\.route_decided|skill\.(hop|rejected|escalated)|loop_guard\.trip|route\.(hop|trip)|run\.(paused|resumed|failed)|agent\.(next_step|route_decided|iteration_cap))$/;

/** Marks a streamed model call's first chunk inside its chat span's bar. */
export const FIRST_CHUNK_MARK = '┃';

/** Deeper spans are drawn at this depth (marked), so a hostile 50,000-deep chain stays readable. */
export const MAX_DEPTH = 16;
/** Spans drawn per waterfall; the rest are counted in a closing line. */
export const MAX_LINES = 2_000;

/**
 * Draws the tree without recursion (an explicit stack), visiting each span once: a span whose parent
 * is missing from the trace is drawn as a root; spans whose parent chain never reaches a root (a
 * cycle, a span that is its own parent) are drawn flat after the tree, under a note.
 */
export function renderWaterfall(spans: ViewSpan[], options: WaterfallOptions = {}): TerminalLine[] {
  if (spans.length === 0) return ['(no spans)'];
  const width = options.width ?? 32;
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | undefined, ViewSpan[]>();
  let t0 = Infinity;
  let tEnd = -Infinity;
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) && span.parentSpanId !== span.spanId ? span.parentSpanId : undefined;
    const list = children.get(parent) ?? [];
    list.push(span);
    children.set(parent, list);
    t0 = Math.min(t0, span.startMs);
    tEnd = Math.max(tEnd, span.endMs);
  }
  for (const list of children.values()) list.sort((a, b) => a.startMs - b.startMs);
  const total = Math.max(1e-6, tEnd - t0);
  const lines: TerminalLine[] = [];
  const showEvent = options.eventsFilter ?? ((name: string) => SHOWN_EVENTS.test(name));
  const rootService = (children.get(undefined) ?? [])[0]?.service ?? '';
  const serviceOf = (span: ViewSpan) => (span.service && span.service !== rootService ? `  [${span.service}]` : '');
  let drawn = 0;
  const draw = (span: ViewSpan, depth: number) => {
    drawn++;
    const from = Math.max(0, Math.min(width - 1, Math.floor(((span.startMs - t0) / total) * width)));
    const to = Math.max(from + 1, Math.min(width, Math.ceil(((span.endMs - t0) / total) * width)));
    const firstChunkMs = firstChunkOf(span);
    const mark = firstChunkMs === undefined ? -1 : Math.max(from, Math.min(to - 1, Math.floor(((span.startMs + firstChunkMs - t0) / total) * width)));
    const bar = ' '.repeat(from) + [...'█'.repeat(to - from)].map((block, i) => (from + i === mark ? FIRST_CHUNK_MARK : block)).join('');
    const indent = depth > MAX_DEPTH ? `${'  '.repeat(MAX_DEPTH)}…` : '  '.repeat(depth);
    const label = `${indent}${span.name}`;
    const cost = typeof span.attributes['footprint.cost.usd'] === 'number' ? `  $${(span.attributes['footprint.cost.usd'] as number).toFixed(6)}` : '';
    const firstChunk = firstChunkMs === undefined ? '' : `  first chunk ${formatMs(firstChunkMs)}`;
    const status = span.status === 'error' ? [paint('red', `  ERROR${span.statusMessage ? `: ${truncate(span.statusMessage, 80)}` : ''}`)] : [];
    lines.push([
      { text: `${truncate(label, 44).padEnd(44)} ` },
      paint(span.status === 'error' ? 'red' : 'cyan', bar.padEnd(width)),
      { text: ` ${formatMs(span.endMs - span.startMs).padStart(9)}${firstChunk}${cost}${serviceOf(span)}` },
      ...status,
    ]);
    for (const event of span.events) {
      if (!showEvent(event.name)) continue;
      lines.push([
        { text: '  '.repeat(Math.min(depth, MAX_DEPTH) + 1) },
        paint('yellow', `• ${event.name.replace(/^footprint\./, '')}`),
        { text: ` ${summarize(event.name, event.attributes)}` },
      ]);
    }
  };
  const visited = new Set<ViewSpan>();
  const stack: { span: ViewSpan; depth: number }[] = (children.get(undefined) ?? []).map((span) => ({ span, depth: 0 })).reverse();
  while (stack.length > 0 && drawn < MAX_LINES) {
    const { span, depth } = stack.pop()!;
    if (visited.has(span)) continue;
    visited.add(span);
    draw(span, depth);
    const kids = children.get(span.spanId) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ span: kids[i]!, depth: depth + 1 });
  }
  const unreached = spans.filter((s) => !visited.has(s));
  const inCycles = drawn < MAX_LINES ? unreached : [];
  if (inCycles.length > 0) {
    lines.push([paint('yellow', `(${inCycles.length} span(s) no root leads to — a parent cycle or a span that is its own parent — drawn flat:)`)]);
    for (const span of inCycles) {
      if (drawn >= MAX_LINES) break;
      draw(span, 1);
    }
  }
  const notDrawn = Math.max(options.total ?? 0, spans.length) - drawn;
  if (notDrawn > 0) lines.push(`(${notDrawn} more span(s) not drawn: a waterfall shows at most ${MAX_LINES})`);
  return lines;
}

/**
 * An event's attributes as `key=value`. Payload fields are named under the event's name
 * (footprint.loop_guard.trip.kind), shown without it (kind); other footprint.* keys lose their namespace.
 * The emitting member (footprint.member.*) is left out: the tree already shows it, and its `kind`
 * would read like the payload's own. Ids that only correlate are left out; fractions get 6 decimals.
 */
function summarize(name: string, attributes: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (/\.(agent_id|turn_id|call_id)$|agentId|turnId|^footprint\.member\./.test(key)) continue;
    const short = key.startsWith(`${name}.`) ? key.slice(name.length + 1) : key.replace(/^footprint\.([a-z_]+\.)?/, '');
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' && !Number.isInteger(value)
          ? String(Number(value.toFixed(6)))
          : JSON.stringify(value);
    parts.push(`${short}=${text}`);
  }
  return truncate(parts.join(' '), 120);
}

/** A streamed call's time to first chunk (ms), from its chat span; absent for anything else. */
function firstChunkOf(span: ViewSpan): number | undefined {
  const seconds = span.attributes[semconv.ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK];
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(2)} ms`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function paint(color: Color, text: string): Segment {
  return { text, color };
}
