/**
 * The spans of one run: the run (root) span and every span opened under it. Each span is created
 * and ended with explicit times from the project clock, its context is derived from the run's base
 * context (so the caller's baggage flows down), and every span still open is tracked, so no path
 * (answer, failure, pause, cancellation) can leave one unended.
 */
import { trace, type Attributes, type Context, type Link, type Span, type SpanKind, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { catchUpWithWallClock, now } from '../../events/index.js';
import { spanTime } from '../encoding/index.js';
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
  return { kind: start.kind, attributes: start.attributes, links: start.links, startTime: spanTime(startTime) };
}

/**
 * A span this run opened, with what the run knows of it on it: whether it is still open, and its end
 * time once decided. A Set of open spans and a Map of decided ends did the same, but a Set or Map
 * whose entries come and go re-allocates its table (about 120 bytes per span: garbage on every span).
 */
interface Tracked extends OpenSpan {
  open: boolean;
  /** Its end time, known before it may end (events still to come). */
  decidedEnd: number | undefined;
}

/** Ended spans are swept from the run's list once they are this many and half of it (a long run stays small). */
const SWEEP_AT = 32;

export class RunSpans {
  readonly root: OpenSpan;
  /** When the run span started. */
  readonly startTime: number;
  /** Every span opened and still open, in start order, and ended ones not yet swept (`ended` of them). */
  private tracked: Tracked[] = [];
  private ended = 0;
  private readonly tracer: Tracer;
  private readonly base: Context;
  private readonly activation?: Activate;

  constructor({ tracer, base, name, start, activation }: RunSpansInit) {
    this.tracer = tracer;
    this.base = base;
    this.activation = activation;
    // The caller's span may be the SDK's, timed by the wall clock: the run must not start before it.
    catchUpWithWallClock();
    this.startTime = start.startTime ?? now();
    const span = tracer.startSpan(name, spanOptions(start, this.startTime), base);
    this.root = { span, ctx: trace.setSpan(base, span) };
  }

  /** Opens a span under `parent`. */
  start(name: string, parent: OpenSpan, start: SpanStart = {}): OpenSpan {
    const span = this.tracer.startSpan(name, spanOptions(start, start.startTime ?? now()), parent.ctx);
    const opened: Tracked = { span, ctx: trace.setSpan(this.base, span), open: true, decidedEnd: undefined };
    this.tracked.push(opened);
    return opened;
  }

  /** Ends a span (once): at `time`, else its decided end time, else now. The root span is the caller's to end. */
  end(opened: OpenSpan, time?: number): void {
    if (!this.isOpen(opened)) return;
    const tracked = opened as Tracked;
    tracked.open = false;
    opened.span.end(spanTime(time ?? tracked.decidedEnd ?? now()));
    if (++this.ended >= SWEEP_AT && this.ended * 2 >= this.tracked.length) this.sweep();
  }

  /** The span's end time is known, but it stays open a little longer (events still to come). */
  setEndTime(opened: OpenSpan, time: number): void {
    if (this.isOpen(opened)) (opened as Tracked).decidedEnd = time;
  }

  /** The end time decided for a span still open, if any. */
  knownEndTime(opened: OpenSpan): number | undefined {
    return this.isOpen(opened) ? (opened as Tracked).decidedEnd : undefined;
  }

  /** Whether `opened` is a span of this run still open (never the root: it is not tracked). */
  isOpen(opened: OpenSpan): boolean {
    return (opened as Partial<Tracked>).open === true;
  }

  private sweep(): void {
    this.tracked = this.tracked.filter((tracked) => tracked.open);
    this.ended = 0;
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
    const tracked = this.tracked;
    this.tracked = [];
    this.ended = 0;
    for (const opened of tracked) {
      if (!opened.open) continue;
      const decided = opened.decidedEnd;
      if (decided === undefined && unfinished) opened.span.setAttributes(unfinished);
      this.end(opened, decided ?? time);
    }
  }
}
