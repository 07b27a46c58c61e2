/**
 * One traced run (or resumed run segment), whatever started it: a runner through the tracing
 * instrument, or a plain executor through traceExecutor. It owns the run span, picks the layout for
 * the detail level, builds the executor's recorder, takes typed events, contains the executor call
 * in a new context, hands out what a pause must carry, and closes the run on every outcome.
 */
import { context, type Attributes, type Context, type Link, type SpanContext } from '@opentelemetry/api';
import { now, type TypedEvent } from '../events/index.js';
import { outcomeLabel, type RunOutcome } from '../runtime/index.js';
import type { CombinedRecorder } from 'footprintjs';
import { activator } from './activation.js';
import { recordFailure } from './failure.js';
import type { Layout, MemberIdentity } from './layout.js';
import { MemberSpans } from './memberSpans.js';
import type { Resolved } from './options.js';
import { traceRecorder } from './recorder.js';
import { RunnerSpans } from './runnerSpans.js';
import { RunTrace } from './runTrace.js';
import { guard, guarded } from './safety.js';
import { SemanticSpans } from './semantic.js';
import { FP_PAUSED, FP_RUN_ID, FP_RUN_OUTCOME } from './semconv.js';
import { StageSpans } from './stageSpans.js';
import { formatTraceparent } from './traceparent.js';

/** Checkpoint carry keys (the runtime merges every instrument's carry into one record). */
export const CARRY_TRACEPARENT = 'traceparent';
export const CARRY_TRACESTATE = 'tracestate';
export const CARRY_MEMBERS = 'footprint-otel.members';

export interface TracedRunInit {
  resolved: Resolved;
  name: string;
  attributes: Attributes;
  /** The context the run span is parented on. */
  parent: Context;
  links?: Link[];
  /** The runtime's run id (stable across pause and resume); without one, footprintjs's is used. */
  runId?: string;
  sessionId?: string;
  /** Member spans that were open when the run paused (a resumed run names them again). */
  carried?: Record<string, MemberIdentity>;
  typedEventsFromHub: boolean;
}

export class TracedRun {
  readonly recorder: CombinedRecorder;
  readonly onEvent: (event: TypedEvent) => void;
  private readonly run: RunTrace;
  private readonly layout: Layout;
  private readonly semantic: SemanticSpans;
  private readonly runner?: RunnerSpans;
  private finished = false;

  constructor(init: TracedRunInit) {
    const { tracer, detail, capture } = init.resolved;
    const attributes = init.runId === undefined ? init.attributes : { ...init.attributes, [FP_RUN_ID]: init.runId };
    this.run = new RunTrace(tracer, init.parent, init.name, { attributes, links: init.links }, activator());
    const carried = init.carried ?? {};
    // Runner runs in full detail use scope hooks and typed events only (the narrative stays off);
    // plain charts (traceExecutor) need the flow hooks for their structure.
    if (detail === 'full' && init.typedEventsFromHub) {
      this.runner = new RunnerSpans(this.run, carried);
      this.layout = this.runner;
      this.recorder = traceRecorder(this.layout, { kind: 'runner', hooks: this.runner }, true);
    } else {
      const stages = detail === 'full' ? new StageSpans(this.run, capture, carried, init.runId !== undefined) : undefined;
      this.layout = stages ?? new MemberSpans(this.run, carried);
      this.recorder = traceRecorder(this.layout, stages && { kind: 'stages', hooks: stages }, init.typedEventsFromHub);
    }
    this.semantic = new SemanticSpans(this.run, this.layout, capture, init.sessionId);
    this.onEvent = guarded('typed event', (event: TypedEvent) => this.semantic.onEvent(event));
  }

  /** Runs the executor call in a new context object with the run span active, so nothing leaks out. */
  within<T>(call: () => Promise<T>): Promise<T> {
    const ctx = guard('run context', () => this.run.runContext());
    return ctx ? context.with(ctx, call) : call();
  }

  /** The run span's context (what a resumed run continues). */
  spanContext(): SpanContext {
    return this.run.root.span.spanContext();
  }

  /** What a paused run's checkpoint carries: the run span's W3C context and the open members. */
  carry(): Record<string, unknown> {
    const spanContext = this.spanContext();
    const carry: Record<string, unknown> = {
      [CARRY_TRACEPARENT]: formatTraceparent(spanContext),
      [CARRY_MEMBERS]: this.layout.openMembers(),
    };
    const traceState = spanContext.traceState?.serialize();
    if (traceState) carry[CARRY_TRACESTATE] = traceState;
    return carry;
  }

  /** Ends the run span (and anything still open) once, with the run's outcome and roll-ups. */
  finish(outcome: RunOutcome): void {
    if (this.finished) return;
    this.finished = true;
    const time = now();
    const root = this.run.root.span;
    // Whatever the roll-ups do, every span of the run still ends (a trace with a missing root is lost).
    try {
      root.setAttributes(this.semantic.totals.attributes());
      if (outcome.status === 'failed' || outcome.status === 'cancelled') recordFailure(root, outcome.error, time, this.semantic.totals.failureType);
      if (outcome.status === 'paused') root.setAttribute(FP_PAUSED, true);
      root.setAttribute(FP_RUN_OUTCOME, outcomeLabel(outcome));
    } finally {
      try {
        if (this.runner) {
          const runner = this.runner;
          const failure = outcome.status === 'failed' || outcome.status === 'cancelled' ? { error: outcome.error, stage: outcome.origin?.stage } : undefined;
          guard('runner finish', () => runner.finish(failure, time));
        }
        this.run.endOpen(time, outcome.status === 'paused' ? { [FP_PAUSED]: true } : undefined);
      } finally {
        root.end(time);
      }
    }
  }
}
