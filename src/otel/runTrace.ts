/**
 * The spans of one run: the run (root) span and every span opened under it. Each span is created
 * and ended with explicit times from the project clock, its context is derived from the run's base
 * context (so the caller's baggage flows down), and every span still open is tracked, so no path
 * (answer, failure, pause, cancellation) can leave one unended.
 */
import { trace, type Attributes, type Context, type Link, type Span, type SpanKind, type Tracer } from '@opentelemetry/api';
import { now } from '../events/index.js';
import type { Activate } from './activation.js';

export interface OpenSpan {
  readonly span: Span;
  /** The base context with this span set: the parent for children, the active context for bodies. */
  readonly ctx: Context;
  /** The end time, once known but the span must stay open a little longer (events still to come). */
  endAt?: number;
}

export interface SpanStart {
  kind?: SpanKind;
  attributes?: Attributes;
  startTime?: number;
  links?: Link[];
}

export class RunTrace {
  readonly root: OpenSpan;
  /** When the run span started. */
  readonly startTime: number;
  private readonly open = new Set<OpenSpan>();

  constructor(
    private readonly tracer: Tracer,
    /** The context the run span is parented on (the caller's, or the paused run's on resume). */
    private readonly base: Context,
    name: string,
    start: SpanStart,
    private readonly activation?: Activate,
  ) {
    this.startTime = start.startTime ?? now();
    const span = tracer.startSpan(name, { ...start, startTime: this.startTime }, base);
    this.root = { span, ctx: trace.setSpan(base, span) };
  }

  /** Opens a span under `parent`. */
  start(name: string, parent: OpenSpan, start: SpanStart = {}): OpenSpan {
    const span = this.tracer.startSpan(name, { ...start, startTime: start.startTime ?? now() }, parent.ctx);
    const opened: OpenSpan = { span, ctx: trace.setSpan(this.base, span) };
    this.open.add(opened);
    return opened;
  }

  /** Ends a span (once): at `time`, else its decided end time, else now. */
  end(opened: OpenSpan, time?: number): void {
    if (!this.open.delete(opened)) return;
    opened.span.end(time ?? opened.endAt ?? now());
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
      if (opened.endAt === undefined && unfinished) opened.span.setAttributes(unfinished);
      this.end(opened, opened.endAt ?? time);
    }
  }
}
