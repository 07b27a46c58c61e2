/**
 * One traced run (or resumed run segment), whatever started it: a runner through the tracing
 * instrument (source 'runner': typed events from its hub), or a plain executor through traceExecutor
 * (source 'executor': footprintjs hooks only). It owns the run's spans, picks the layout from the
 * source and the detail level, builds the executor's recorder, takes typed events and other emits, contains the
 * executor call in a new context, hands out what a pause must carry, and closes the run with the
 * outcome the runtime decided.
 */
import { context, type Attributes, type Context, type Link, type SpanContext } from '@opentelemetry/api';
import type { CombinedRecorder, EmitEvent } from 'footprintjs';
import { exportedView, now, type TypedEvent } from '../../events/index.js';
import { outcomeLabel, type RunOutcome } from '../../runtime/index.js';
import {
  boundString,
  failureOf,
  ATTR_FOOTPRINT_PAUSED,
  ATTR_FOOTPRINT_RUN_ID,
  ATTR_FOOTPRINT_RUN_OUTCOME,
  ATTR_FOOTPRINT_RUN_STOP_REASON,
  formatTraceparent,
  markFailed,
  recordFailure,
  spanTime,
} from '../encoding/index.js';
import { EventSpans, lineageCarry, RunLineage, RunRollups, type CarriedBy, type KnownProducers } from '../genai/index.js';
import {
  activator,
  executorLayout,
  runnerLayout,
  RunSpans,
  type MemberIdentity,
  type MemberLayout,
  type SpanLayout,
} from '../placement/index.js';
import { CARRY_MEMBERS, CARRY_TRACEPARENT, CARRY_TRACESTATE } from './carry.js';
import type { Resolved } from './options.js';
import { guard, guarded } from './safety.js';
import { emitAsSpanEvent, traceRecorder } from './traceRecorder.js';

/** Where a traced run comes from: a runner run (typed events from its hub) or a plain executor. */
export type TraceSource = 'runner' | 'executor';

export interface TracedRunInit {
  source: TraceSource;
  resolved: Resolved;
  name: string;
  attributes: Attributes;
  /** The context the run span is parented on. */
  parent: Context;
  links?: Link[];
  /** The runtime's run id (stable across pause and resume); without one, footprintjs's is used. */
  runId?: string;
  conversationId?: string;
  /** Member spans that were open when the run paused (a resumed run names them again). */
  carried?: Record<string, MemberIdentity>;
  /** The run's members known before it starts (memberDirectory), by path key. */
  expected?: Record<string, MemberIdentity>;
  /** Producer spans of the run before its pause (lineageCarry.ts). */
  known?: KnownProducers;
  /** The stored conversation's entries the run continues (RunStart.restored: filled when the thread loads). */
  restored?: readonly CarriedBy[];
}

export class TracedRun {
  /**
   * The footprintjs recorder its layout needs; undefined when it needs none (a semantic runner run). A
   * runner run whose stages report themselves hears its stage hooks from its hub instead (tracingInstrument.ts).
   */
  readonly recorder?: CombinedRecorder;
  /** Takes one typed event of the run (runner runs; guarded). */
  readonly onEvent: (event: TypedEvent) => void;
  /** Takes one of the run's other emits (guarded): a span event. A runner run's come through the hub, a plain executor's through the recorder. */
  readonly onOtherEmit: (event: EmitEvent) => void;
  private readonly run: RunSpans;
  private readonly rollups: RunRollups;
  private readonly layout: SpanLayout;
  private readonly members?: MemberLayout;
  /** The run's producer spans (runner runs: typed events name the producers). */
  private readonly lineage?: RunLineage;
  /** Content capture: what a failure's exported view holds (events/exportedView.ts). */
  private readonly capture: boolean;
  private finished = false;

  constructor(init: TracedRunInit) {
    const { tracer, detail, capture, semconv } = init.resolved;
    this.capture = capture;
    const attributes = init.runId === undefined ? init.attributes : { [ATTR_FOOTPRINT_RUN_ID]: init.runId, ...init.attributes };
    this.run = new RunSpans({ tracer, base: init.parent, name: init.name, start: { attributes, links: init.links }, activation: activator() });
    this.rollups = new RunRollups(this.run.root.span, semconv);
    if (init.source === 'runner') {
      const members = runnerLayout({ detail, run: this.run, carried: init.carried ?? {}, expected: init.expected ?? {} });
      const lineage = new RunLineage({ runId: init.runId, linkLimit: init.resolved.linkLimit, known: init.known, restored: init.restored });
      const events = new EventSpans({ run: this.run, layout: members, rollups: this.rollups, lineage, capture, semconv, conversationId: init.conversationId });
      this.lineage = lineage;
      this.members = members;
      this.layout = members;
      this.onEvent = guarded('typed event', (event: TypedEvent) => events.onEvent(event));
    } else {
      this.layout = executorLayout({ detail, run: this.run, capture });
      this.onEvent = () => {};
    }
    // A runner run's emits come through its hub; a plain executor's only through the recorder.
    this.onOtherEmit = emitAsSpanEvent(this.layout);
    this.recorder = traceRecorder(this.layout, init.source === 'executor' ? this.onOtherEmit : undefined);
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

  /** What a paused run's checkpoint carries: the run span's W3C context, the open members and the producer spans. */
  carry(): Record<string, unknown> {
    const spanContext = this.spanContext();
    const carry: Record<string, unknown> = {
      [CARRY_TRACEPARENT]: formatTraceparent(spanContext),
      [CARRY_MEMBERS]: this.members?.openMembers() ?? {},
      ...this.lineageCarry(),
    };
    const traceState = spanContext.traceState?.serialize();
    if (traceState) carry[CARRY_TRACESTATE] = traceState;
    return carry;
  }

  /** What the run's stored conversation entry carries for the runs that continue it: the run span and the producer spans. */
  lineageCarry(): Record<string, unknown> {
    return this.lineage ? lineageCarry(this.spanContext(), this.lineage.entries(), this.lineage.latestReplies()) : {};
  }

  /** Ends the run span (and anything still open) once, with the run's outcome and roll-ups. */
  finish(outcome: RunOutcome): void {
    if (this.finished) return;
    this.finished = true;
    const time = now();
    const root = this.run.root.span;
    const failure =
      outcome.status === 'failed' || outcome.status === 'cancelled'
        ? { error: exportedView({ type: 'thrown', payload: { error: outcome.error } }, this.capture).payload.error, stage: outcome.origin?.stage, type: this.rollups.failureType, recordedBelow: this.rollups.failureRecordedBelow }
        : undefined;
    // Whatever the roll-ups do, every span of the run still ends (a trace with a missing root is lost).
    try {
      root.setAttributes(this.rollups.attributes());
      if (outcome.status === 'paused') root.setAttribute(ATTR_FOOTPRINT_PAUSED, true);
      if (outcome.status === 'stopped_early') root.setAttribute(ATTR_FOOTPRINT_RUN_STOP_REASON, boundString(outcome.reason));
      // Known only at the end: the chat span whose output became the answer (attributes, not a link: docs/lineage.md).
      const answer = 'answeredBy' in outcome && outcome.answeredBy !== undefined ? this.lineage?.answerAttributes(outcome.answeredBy) : undefined;
      if (answer) root.setAttributes(answer);
      root.setAttribute(ATTR_FOOTPRINT_RUN_OUTCOME, outcomeLabel(outcome));
    } finally {
      try {
        const layout = this.layout;
        // One exception event per failure, where it happened: a failed call, else the stage that threw, else the run span.
        const recorded = failure ? guard('layout finish', () => layout.finish?.({ time, failure })) === true || failure.recordedBelow : false;
        if (failure) {
          if (recorded) markFailed(root, failureOf(failure.error, failure.type));
          else recordFailure(root, failure.error, time, failure.type);
        }
        this.run.endOpen(time, outcome.status === 'paused' ? { [ATTR_FOOTPRINT_PAUSED]: true } : undefined);
      } finally {
        root.end(spanTime(time));
      }
    }
  }
}
