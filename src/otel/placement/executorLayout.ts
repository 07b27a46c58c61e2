/**
 * The executor layout (a plain footprintjs executor, detail 'full'): one span per stage execution,
 * subflow mount and fork, driven by footprintjs's scope and flow hooks.
 *
 * - A stage span opens at onStageStart (and becomes active for the stage body), takes its end time
 *   at onStageEnd and ends at onStageExecuted, because decisions and selections arrive in between.
 *   A retry re-starts the same runtime stage id: one span, with attempt events.
 * - Parents come from the runtime stage id's subflow prefix (the span opened at onSubflowEntry for
 *   that subflow id), never from parentRuntimeStageId, which is only the previous step.
 * - Fork children (pipelineId set, or a subflow entry with a traversal subflowPath) hang under a
 *   `fork {stage}` span, which ends at its last child's end once the main line moves on.
 * - Errors end the stage as ERROR and mark every enclosing subflow failed; a pause ends everything.
 */
import { SpanStatusCode, type Attributes } from '@opentelemetry/api';
import {
  isFlowEvent,
  type CombinedRecorder,
  type ErrorEvent,
  type FlowBreakEvent,
  type FlowDecisionEvent,
  type FlowErrorEvent,
  type FlowForkEvent,
  type FlowLoopEvent,
  type FlowRunEvent,
  type FlowSelectedEvent,
  type FlowStageEvent,
  type FlowStageRetryEvent,
  type FlowSubflowEvent,
  type StageEvent,
} from 'footprintjs';
import { exportedView, now, stageIds } from '../../events/index.js';
import {
  boundString,
  decisionAttributes,
  EVENT_FOOTPRINT_BREAK,
  EVENT_FOOTPRINT_DECISION,
  EVENT_FOOTPRINT_LOOP,
  EVENT_FOOTPRINT_PAUSE,
  EVENT_FOOTPRINT_RESUME,
  EVENT_FOOTPRINT_STAGE_RETRY,
  EVENT_FOOTPRINT_SELECTION,
  flatten,
  ATTR_FOOTPRINT_FORK_CHILDREN,
  ATTR_FOOTPRINT_PAUSED,
  ATTR_FOOTPRINT_RUN_ID,
  ATTR_FOOTPRINT_STAGE_ID,
  ATTR_FOOTPRINT_STAGE_LOOP_ITERATION,
  ATTR_FOOTPRINT_STAGE_RUNTIME_ID,
  ATTR_FOOTPRINT_STAGE_TYPE,
  ATTR_FOOTPRINT_SUBFLOW_ID,
  recordFailure,
  selectionAttributes,
  toList,
} from '../encoding/index.js';
import { emitterSpan, stagePath, type HookGuard, type RecorderHooks, type SpanLayout } from './layout.js';
import { isRetry } from './retries.js';
import type { OpenSpan, RunSpans } from './runSpans.js';

/** footprintjs does not export the pause/resume event types; take them from the hook signatures. */
type PauseHookEvent = Parameters<NonNullable<CombinedRecorder['onPause']>>[0];
type ResumeHookEvent = Parameters<NonNullable<CombinedRecorder['onResume']>>[0];
type FlowPauseEvent = Extract<PauseHookEvent, { subflowPath: readonly string[] }>;
type FlowResumeEvent = Exclude<ResumeHookEvent, { pipelineId: string }>;

interface Fork {
  opened: OpenSpan;
  lastEnd?: number;
}

interface Container {
  opened: OpenSpan;
  fork?: Fork;
  /** The fork this subflow is a child of. */
  inFork?: Fork;
  failed: boolean;
}

interface Stage {
  opened: OpenSpan;
  inFork?: Fork;
  attempts: number;
  /** addParallelForEach: the fan-out stage stays open over its branches and ends at onStageEnd. */
  endsAtStageEnd?: boolean;
}

export interface ExecutorLayoutInit {
  run: RunSpans;
  /** Whether decision evidence and pause data may show run data (content capture). */
  capture: boolean;
}

export class ExecutorLayout implements SpanLayout {
  private readonly stages = new Map<string, Stage>();
  private readonly containers = new Map<string, Container>();
  private readonly run: RunSpans;
  private readonly capture: boolean;

  constructor({ run, capture }: ExecutorLayoutInit) {
    this.run = run;
    this.capture = capture;
    this.containers.set('', { opened: run.root, failed: false });
  }

  hooks(guard: HookGuard): RecorderHooks {
    return {
      onStageStart: guard('onStageStart', (event) => this.onStageStart(event)),
      onStageEnd: guard('onStageEnd', (event) => this.onStageEnd(event)),
      onRunStart: guard('onRunStart', (event) => this.onRunStart(event)),
      onStageExecuted: guard('onStageExecuted', (event) => this.onStageExecuted(event)),
      onDecision: guard('onDecision', (event) => this.onDecision(event)),
      onSelected: guard('onSelected', (event) => this.onSelected(event)),
      onFork: guard('onFork', (event) => this.onFork(event)),
      onSubflowEntry: guard('onSubflowEntry', (event) => this.onSubflowEntry(event)),
      onSubflowExit: guard('onSubflowExit', (event) => this.onSubflowExit(event)),
      onError: guard('onError', (event) => this.onError(event)),
      onStageRetry: guard('onStageRetry', (event) => this.onStageRetry(event)),
      onLoop: guard('onLoop', (event) => this.onLoop(event)),
      onBreak: guard('onBreak', (event) => this.onBreak(event)),
      onPause: guard('onPause', (event) => this.onPause(event)),
      onResume: guard('onResume', (event) => this.onResume(event)),
      onRunEnd: guard('onRunEnd', () => this.closeForks()),
      onRunFailed: guard('onRunFailed', () => this.closeForks()),
    };
  }

  stage(runtimeStageId: string): OpenSpan | undefined {
    return this.stages.get(runtimeStageId)?.opened;
  }

  container(path: readonly string[]): OpenSpan {
    return this.containerOf(path).opened;
  }

  // ── scope hooks ────────────────────────────────────────────────────────────────────────────────
  private onStageStart(event: StageEvent): void {
    const time = now();
    const rsid = event.runtimeStageId;
    if (isRetry(this.stages, rsid, this.run, time)) return;
    const path = stagePath(rsid);
    const container = this.containerOf(path);
    const inFork = event.pipelineId !== '' ? container.fork : undefined;
    if (!inFork) this.closeFork(container);
    const opened = this.run.start(stageIds.displayName(event.stageName, path), inFork?.opened ?? container.opened, {
      startTime: time,
      attributes: { [ATTR_FOOTPRINT_STAGE_ID]: event.stageId, [ATTR_FOOTPRINT_STAGE_RUNTIME_ID]: rsid },
    });
    this.stages.set(rsid, { opened, inFork, attempts: 1 });
    this.run.activate(opened);
  }

  private onStageEnd(event: StageEvent): void {
    const stage = this.stages.get(event.runtimeStageId);
    if (!stage) return;
    this.run.setEndTime(stage.opened, now());
    if (stage.endsAtStageEnd) this.endStage(event.runtimeStageId, stage);
  }

  // ── flow hooks ─────────────────────────────────────────────────────────────────────────────────
  private onRunStart(event: FlowRunEvent): void {
    const runId = event.traversalContext?.runId;
    if (runId) this.run.root.span.setAttribute(ATTR_FOOTPRINT_RUN_ID, runId);
  }

  private onStageExecuted(event: FlowStageEvent): void {
    const rsid = event.traversalContext?.runtimeStageId;
    if (rsid === undefined || event.stageType === 'subflow-mount') return;
    const stage = this.stages.get(rsid);
    if (!stage) return;
    stage.opened.span.setAttribute(ATTR_FOOTPRINT_STAGE_TYPE, event.stageType);
    const loop = event.traversalContext?.loopIteration;
    if (loop !== undefined) stage.opened.span.setAttribute(ATTR_FOOTPRINT_STAGE_LOOP_ITERATION, loop);
    // A plain fork's parent stage already ended; a fan-out stage still open ends at its onStageEnd.
    if (event.stageType === 'fork' && this.run.knownEndTime(stage.opened) === undefined) {
      stage.endsAtStageEnd = true;
      return;
    }
    this.endStage(rsid, stage);
  }

  private onDecision(event: FlowDecisionEvent): void {
    this.eventOn(event.traversalContext?.runtimeStageId, EVENT_FOOTPRINT_DECISION, decisionAttributes(event, this.capture));
  }

  private onSelected(event: FlowSelectedEvent): void {
    this.eventOn(event.traversalContext?.runtimeStageId, EVENT_FOOTPRINT_SELECTION, selectionAttributes(event, this.capture));
  }

  private onFork(event: FlowForkEvent): void {
    const context = event.traversalContext;
    if (!context) return;
    const path = stageIds.subflowPathOf(context.runtimeStageId);
    const container = this.containerOf(path);
    this.closeFork(container);
    const opened = this.run.start(`fork ${stageIds.displayName(context.stageName, path)}`, container.opened, {
      attributes: {
        [ATTR_FOOTPRINT_STAGE_TYPE]: 'fork',
        [ATTR_FOOTPRINT_STAGE_RUNTIME_ID]: context.runtimeStageId,
        [ATTR_FOOTPRINT_FORK_CHILDREN]: toList(event.children),
      },
    });
    container.fork = { opened };
  }

  private onSubflowEntry(event: FlowSubflowEvent): void {
    const context = event.traversalContext;
    if (!context) return;
    const mount = context.runtimeStageId;
    const path = stageIds.subflowPathOf(mount);
    const parent = this.containerOf(path);
    const inFork = context.subflowPath ? parent.fork : undefined;
    if (!inFork) this.closeFork(parent);
    const key = subflowKey(event, mount);
    const opened = this.run.start(stageIds.displayName(event.name, path), inFork?.opened ?? parent.opened, {
      attributes: { [ATTR_FOOTPRINT_STAGE_TYPE]: 'subflow', [ATTR_FOOTPRINT_SUBFLOW_ID]: key, [ATTR_FOOTPRINT_STAGE_RUNTIME_ID]: mount },
    });
    this.containers.set(key, { opened, inFork, failed: false });
  }

  private onSubflowExit(event: FlowSubflowEvent): void {
    const mount = event.traversalContext?.runtimeStageId;
    if (mount === undefined) return;
    const key = subflowKey(event, mount);
    const container = this.containers.get(key);
    if (!container || key === '') return;
    this.closeFork(container);
    if (container.failed) container.opened.span.setStatus({ code: SpanStatusCode.ERROR, message: 'a stage inside failed' });
    const time = now();
    this.run.end(container.opened, time);
    this.containers.delete(key);
    if (container.inFork) container.inFork.lastEnd = Math.max(container.inFork.lastEnd ?? 0, time);
  }

  private onError(event: ErrorEvent | FlowErrorEvent): void {
    if (!isFlowEvent(event)) return; // scope-channel errors are read/write errors, not stage failures
    const flow = event as FlowErrorEvent;
    const rsid = flow.traversalContext?.runtimeStageId;
    if (rsid === undefined) return;
    const time = now();
    const stage = this.stages.get(rsid);
    const target = stage?.opened ?? this.container(stageIds.subflowPathOf(rsid));
    recordFailure(target.span, exportedView({ type: 'thrown', payload: { error: flow.structuredError.raw ?? flow.structuredError } }, this.capture).payload.error, time);
    if (stage) {
      this.run.setEndTime(stage.opened, time);
      this.endStage(rsid, stage);
    }
    for (const key of stageIds.ancestorKeys(stageIds.subflowPathOf(rsid))) {
      const container = this.containers.get(key);
      if (container) container.failed = true;
    }
  }

  private onStageRetry(event: FlowStageRetryEvent): void {
    this.eventOn(event.traversalContext?.runtimeStageId, EVENT_FOOTPRINT_STAGE_RETRY, {
      attempt: event.attempt,
      max_attempts: event.maxAttempts,
      delay_ms: event.delayMs,
      'error.message': boundString(exportedView({ type: 'flow.error', payload: { error: { message: event.message } } }, this.capture).payload.error.message),
    });
  }

  private onLoop(event: FlowLoopEvent): void {
    const rsid = event.traversalContext?.runtimeStageId;
    if (rsid === undefined) return;
    this.container(stageIds.subflowPathOf(rsid)).span.addEvent(EVENT_FOOTPRINT_LOOP, { target: event.target, iteration: event.iteration }, now());
  }

  private onBreak(event: FlowBreakEvent): void {
    const rsid = event.traversalContext?.runtimeStageId;
    if (rsid === undefined) return;
    const attributes: Attributes = { stage: stageIds.displayName(event.stageName, stageIds.subflowPathOf(rsid)) };
    if (event.reason) attributes.reason = boundString(event.reason);
    this.container(stageIds.subflowPathOf(rsid)).span.addEvent(EVENT_FOOTPRINT_BREAK, attributes, now());
  }

  private onPause(event: PauseHookEvent): void {
    if (!isFlowEvent(event)) return;
    const flow = event as FlowPauseEvent;
    const rsid = flow.traversalContext?.runtimeStageId;
    const target = (rsid && this.stages.get(rsid)?.opened) || this.run.root;
    const attributes: Attributes = { stage: flow.stageName };
    const paused = exportedView({ type: 'flow.pause', payload: { data: flow.pauseData } }, this.capture).payload;
    if (paused.data !== undefined) flatten(paused.data, 'data', attributes);
    const time = now();
    target.span.addEvent(EVENT_FOOTPRINT_PAUSE, attributes, time);
    // Nothing else arrives for this run segment: end every open span, marked paused.
    this.run.endOpen(time, { [ATTR_FOOTPRINT_PAUSED]: true });
    this.stages.clear();
    for (const key of [...this.containers.keys()]) if (key !== '') this.containers.delete(key);
    this.containers.get('')!.fork = undefined;
  }

  private onResume(event: ResumeHookEvent): void {
    if (!isFlowEvent(event)) return;
    this.run.root.span.addEvent(EVENT_FOOTPRINT_RESUME, { stage: (event as FlowResumeEvent).stageName }, now());
  }

  private closeForks(): void {
    for (const container of this.containers.values()) this.closeFork(container);
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────────
  private containerOf(path: readonly string[]): Container {
    return stageIds.nearest(path, (key) => this.containers.get(key)) ?? this.containers.get('')!;
  }

  private endStage(rsid: string, stage: Stage): void {
    const time = this.run.knownEndTime(stage.opened) ?? now();
    this.run.end(stage.opened, time);
    this.stages.delete(rsid);
    if (stage.inFork) stage.inFork.lastEnd = Math.max(stage.inFork.lastEnd ?? 0, time);
  }

  private closeFork(container: Container): void {
    const fork = container.fork;
    if (!fork) return;
    container.fork = undefined;
    this.run.end(fork.opened, fork.lastEnd);
  }

  private eventOn(rsid: string | undefined, name: string, attributes: Attributes): void {
    if (rsid === undefined) return;
    emitterSpan(this, rsid).span.addEvent(name, attributes, now());
  }
}

/** A subflow's key: its path-prefixed subflow id, which is also the prefix of its stages' ids. */
function subflowKey(event: FlowSubflowEvent, mountRuntimeStageId: string): string {
  return event.subflowId ?? stageIds.withoutIndex(mountRuntimeStageId);
}
