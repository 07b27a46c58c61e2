/**
 * The spans of one run: the run (root) span and every span opened under it. Each span is created
 * and ended with explicit times from the project clock, its context is derived from the run's base
 * context (so the caller's baggage flows down), and every span still open is tracked, so no path
 * (answer, failure, pause, cancellation) can leave one unended.
 */
import { trace, type Attributes, type Context, type Link, type Span, type SpanKind, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { now } from '../../events/index.js';
import type { Activate } from './activation.js';

export interface OpenSpan {
  readonly span: Span;
  /** The base context with this span set: the parent for children, the active context for bodies. */
  readonly ctx: Context;
}

export interface RunSpansInit {
  tracer: Tracer;
  /** The context the run span is parented on (the caller's, or the paused run's on resume). */
  base: Context;
  name: string;
  start: SpanStart;
  /** Makes a span active for code the bridge does not call (absent: explicit parents only). */
  activation?: Activate;
}

export interface SpanStart {
  kind?: SpanKind;
  attributes?: Attributes;
  startTime?: number;
  links?: Link[];
}

/**
 * The SDK's span options, field by field: a spread followed by a property (`{ ...start, startTime }`)
 * is a slow runtime call on Node 20's V8, and this runs for every span.
 */
function spanOptions(start: SpanStart, startTime: number): SpanOptions {
  return { kind: start.kind, attributes: start.attributes, links: start.links, startTime };
}

export class RunSpans {
  readonly root: OpenSpan;
  /** When the run span started. */
  readonly startTime: number;
  private readonly open = new Set<OpenSpan>();
  /** End times known before a span may end (events still to come), by span. */
  private readonly knownEnds = new Map<OpenSpan, number>();
  private readonly tracer: Tracer;
  private readonly base: Context;
  private readonly activation?: Activate;

  constructor({ tracer, base, name, start, activation }: RunSpansInit) {
    this.tracer = tracer;
    this.base = base;
    this.activation = activation;
    this.startTime = start.startTime ?? now();
    const span = tracer.startSpan(name, spanOptions(start, this.startTime), base);
    this.root = { span, ctx: trace.setSpan(base, span) };
  }

  /** Opens a span under `parent`. */
  start(name: string, parent: OpenSpan, start: SpanStart = {}): OpenSpan {
    const span = this.tracer.startSpan(name, spanOptions(start, start.startTime ?? now()), parent.ctx);
    const opened: OpenSpan = { span, ctx: trace.setSpan(this.base, span) };
    this.open.add(opened);
    return opened;
  }

  /** Ends a span (once): at `time`, else its decided end time, else now. */
  end(opened: OpenSpan, time?: number): void {
    if (!this.open.delete(opened)) return;
    const decided = this.knownEnds.get(opened);
    this.knownEnds.delete(opened);
    opened.span.end(time ?? decided ?? now());
  }

  /** The span's end time is known, but it stays open a little longer (events still to come). */
  setEndTime(opened: OpenSpan, time: number): void {
    if (this.open.has(opened)) this.knownEnds.set(opened, time);
  }

  /** The end time decided for a span still open, if any. */
  knownEndTime(opened: OpenSpan): number | undefined {
    return this.knownEnds.get(opened);
  }

  isOpen(opened: OpenSpan): boolean {
    return this.open.has(opened);
  }

  /** Makes `opened` the active span for the code that runs next in this async flow. */
  activate(opened: OpenSpan): void {
    this.activation?.(opened.ctx);
  }

  /** A new context object with the run span active, for the run wrapper to enter. */
  runContext(): Context {
    return trace.setSpan(this.base, this.root.span);
  }

  /**
   * Ends every span still open (not the root). A span whose end time was already decided ends
   * then; the others end at `time` with `unfinished` attributes (e.g. footprint.paused=true).
   */
  endOpen(time: number, unfinished?: Attributes): void {
    for (const opened of [...this.open]) {
      const decided = this.knownEnds.get(opened);
      if (decided === undefined && unfinished) opened.span.setAttributes(unfinished);
      this.end(opened, decided ?? time);
    }
  }
}
