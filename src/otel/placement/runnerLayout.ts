/**
 * The runner layout (detail 'full' for runner runs): a span per stage execution and a span per
 * member, driven by footprintjs's scope hooks (onStageStart, onStageEnd) and the run's typed events
 * only. No flow hook is attached, so footprintjs keeps its narrative off.
 *
 * - A stage span opens at onStageStart (and becomes active for the stage body) and ends at
 *   onStageEnd. A run of the runtime's own charts reports them to its hub, which the hooks then hear
 *   instead of a footprintjs recorder (wiring/tracingInstrument.ts). A retry re-starts the same runtime stage id: one span, with attempt events. A stage
 *   that throws or pauses gets no onStageEnd: it ends with the run (ERROR for the failing stage,
 *   footprint.paused otherwise).
 * - A member span (the subflow a member is mounted at) opens at the first onStageStart inside its
 *   not-yet-open subflow path, so its first stage nests under it; turn_start / composition.enter name
 *   it. It ends once its exit event arrived and its last child ended, never before a child.
 */
import { now, stageIds } from '../../events/index.js';
// A stage's hooks read only what names its execution, which footprintjs's StageEvent and a stage's own report (runtime/run/hub.ts) both give.
import type { StageExecution } from '../../runtime/index.js';
import {
  ATTR_FOOTPRINT_STAGE_ID,
  ATTR_FOOTPRINT_STAGE_LOOP_ITERATION,
  ATTR_FOOTPRINT_STAGE_RUNTIME_ID,
  ATTR_FOOTPRINT_SUBFLOW_ID,
  failureOf,
  markFailed,
  recordFailure,
} from '../encoding/index.js';
import { stagePath, type HookGuard, type LayoutEnd, type MemberFailure, type MemberIdentity, type MemberLayout, type MemberLayoutInit, type RecorderHooks } from './layout.js';
import { KnownMembers } from './knownMembers.js';
import { isRetry } from './retries.js';
import { OpenList } from './openList.js';
import type { OpenSpan, RunSpans } from './runSpans.js';

interface Member {
  key: string;
  opened: OpenSpan;
  parent?: Member;
  identity?: MemberIdentity;
  /** Open stage spans and open child members directly under this member. */
  pending: number;
  /** Its exit event arrived (at this time): it ends once nothing under it is open. */
  exitAt?: number;
  lastChildEnd: number;
  ended: boolean;
  /** The fork branch namespace (pipelineId) of the stage that opened it. */
  pipeline: string;
  /** Visits per stage id inside this member (loop iterations). */
  visits: Map<string, number>;
}

interface Stage {
  opened: OpenSpan;
  member: Member;
  stageId: string;
  attempts: number;
}

export class RunnerLayout implements MemberLayout {
  /** Stage spans open now, by runtime stage id (OpenList: no table re-allocated per stage). */
  private readonly stages = new OpenList<string, Stage>();
  /** The current member of each subflow path ('' is the run itself). */
  private readonly members = new Map<string, Member>();
  private readonly root: Member;
  private readonly run: RunSpans;
  private readonly known: KnownMembers;

  constructor(init: MemberLayoutInit) {
    this.run = init.run;
    this.known = new KnownMembers(init);
    this.root = { key: '', opened: init.run.root, pending: 0, lastChildEnd: 0, ended: false, pipeline: '', visits: new Map() };
    this.members.set('', this.root);
  }

  /** Scope hooks only, so footprintjs attaches no flow recorder and keeps its narrative off. */
  hooks(guard: HookGuard): RecorderHooks {
    return {
      onStageStart: guard('onStageStart', (event) => this.onStageStart(event)),
      onStageEnd: guard('onStageEnd', (event) => this.onStageEnd(event)),
    };
  }

  stage(runtimeStageId: string): OpenSpan | undefined {
    return this.stages.get(runtimeStageId)?.opened;
  }

  container(path: readonly string[]): OpenSpan {
    return this.memberOf(path).opened;
  }

  enterMember(path: readonly string[], identity: MemberIdentity, time: number): OpenSpan {
    if (path.length === 0) {
      this.root.identity = identity;
      this.run.root.span.updateName(identity.name);
      this.run.root.span.setAttributes(identity.attributes);
      return this.run.root;
    }
    let member = this.members.get(stageIds.pathKey(path));
    if (!member || member.ended || member.exitAt !== undefined) member = this.open(path, time, '');
    this.name(member, identity);
    return member.opened;
  }

  exitMember(path: readonly string[], time: number): void {
    if (path.length === 0) return;
    const member = this.members.get(stageIds.pathKey(path));
    if (!member || member.ended || member.exitAt !== undefined) return;
    member.exitAt = time;
    this.settle(member);
  }

  failMember(path: readonly string[], failure: MemberFailure, time: number): void {
    const member = this.members.get(stageIds.pathKey(path));
    if (!member || member.ended) return;
    markFailed(member.opened.span, failure);
    // The stage that threw inside it got no onStageEnd: it failed, and ends now.
    for (const [rsid, stage] of this.stages.entries()) {
      if (within(stage.member, member)) {
        markFailed(stage.opened.span, failure);
        this.endStage(rsid, stage, time);
      }
    }
    this.exitMember(path, time);
  }

  failMembers(failure: MemberFailure): void {
    for (const member of this.members.values()) {
      if (member !== this.root && !member.ended) markFailed(member.opened.span, failure);
    }
  }

  openMembers(): Record<string, MemberIdentity> {
    const open: Record<string, MemberIdentity> = {};
    for (const [key, member] of this.members) {
      if (key !== '' && !member.ended && member.exitAt === undefined && member.identity) open[key] = member.identity;
    }
    return open;
  }

  /**
   * The run ends: stages that never got onStageEnd threw (ERROR on failure) or paused. The stage
   * that threw holds the exception event, unless a failed call under it already does.
   */
  finish({ failure, time }: LayoutEnd): boolean {
    if (!failure) return false;
    const unfinished = this.stages.entries().map(([, stage]) => stage);
    const named = failure.stage === undefined ? [] : unfinished.filter((s) => stageIds.isStage(s.stageId, failure.stage!));
    const failed = named.length > 0 ? named : unfinished.slice(-1);
    for (const stage of failed) {
      // The error.type the run reported (the runtime's bounded type; `cancelled` for a cancelled run).
      if (failure.recordedBelow) markFailed(stage.opened.span, failureOf(failure.error, failure.type));
      else recordFailure(stage.opened.span, failure.error, time, failure.type);
    }
    return failed.length > 0 && !failure.recordedBelow;
  }

  // ── scope hooks ────────────────────────────────────────────────────────────────────────────────
  private onStageStart(event: StageExecution): void {
    const time = now();
    const rsid = event.runtimeStageId;
    if (isRetry(this.stages, rsid, this.run, time)) return;
    const path = stagePath(rsid);
    this.leave(path, event.pipelineId, time);
    const member = this.ensure(path, time, event.pipelineId);
    const visits = member.visits.get(event.stageId) ?? 0;
    member.visits.set(event.stageId, visits + 1);
    const attributes: Record<string, string | number> = { [ATTR_FOOTPRINT_STAGE_ID]: event.stageId, [ATTR_FOOTPRINT_STAGE_RUNTIME_ID]: rsid };
    if (visits > 0) attributes[ATTR_FOOTPRINT_STAGE_LOOP_ITERATION] = visits;
    const opened = this.run.start(stageIds.displayName(event.stageName, path), member.opened, { startTime: time, attributes });
    member.pending++;
    this.stages.set(rsid, { opened, member, stageId: event.stageId, attempts: 1 });
    this.run.activate(opened);
  }

  private onStageEnd(event: StageExecution): void {
    const stage = this.stages.get(event.runtimeStageId);
    if (!stage) return;
    this.endStage(event.runtimeStageId, stage, now());
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────────
  private memberOf(path: readonly string[]): Member {
    return stageIds.nearest(path, (key) => {
      const member = this.members.get(key);
      return member && !member.ended ? member : undefined;
    }) ?? this.root;
  }

  /** The member of `path`, opening every member on the way that is not open yet. */
  private ensure(path: readonly string[], time: number, pipeline: string): Member {
    let member = this.root;
    if (path.length === 0) return member;
    for (const enclosing of stageIds.enclosingPaths(path)) {
      const existing = this.members.get(stageIds.pathKey(enclosing));
      member = existing && !existing.ended ? existing : this.open(enclosing, time, pipeline);
    }
    return member;
  }

  /**
   * A subflow that is no member (no exit event comes for it) is left once a stage of the same fork
   * branch starts outside it: it ends at its last child's end.
   */
  private leave(path: readonly string[], pipeline: string, time: number): void {
    const key = stageIds.pathKey(path);
    for (const member of this.members.values()) {
      if (member === this.root || member.identity || member.ended || member.exitAt !== undefined || member.pipeline !== pipeline) continue;
      if (key === member.key || key.startsWith(`${member.key}/`)) continue;
      member.exitAt = member.pending > 0 ? time : member.lastChildEnd;
      this.settle(member);
    }
  }

  private open(path: readonly string[], time: number, pipeline: string): Member {
    const key = stageIds.pathKey(path);
    const parent = this.memberOf(path.slice(0, -1));
    // A member known ahead (or carried over a pause) starts with its name and identifying attributes.
    const identity = this.known.ahead(key);
    const name = identity?.name ?? path[path.length - 1];
    const attributes = identity ? { [ATTR_FOOTPRINT_SUBFLOW_ID]: key, ...identity.attributes } : { [ATTR_FOOTPRINT_SUBFLOW_ID]: key };
    const opened = this.run.start(name, parent.opened, { startTime: time, attributes });
    const member: Member = { key, opened, parent, identity, pending: 0, lastChildEnd: 0, ended: false, pipeline, visits: new Map() };
    parent.pending++;
    this.members.set(key, member);
    return member;
  }

  private name(member: Member, identity: MemberIdentity): void {
    member.identity = identity;
    member.opened.span.updateName(identity.name);
    member.opened.span.setAttributes(identity.attributes);
  }

  private endStage(rsid: string, stage: Stage, time: number): void {
    this.run.end(stage.opened, time);
    this.stages.delete(rsid);
    this.childEnded(stage.member, time);
  }

  private childEnded(member: Member, time: number): void {
    if (member === this.root) return;
    member.pending--;
    member.lastChildEnd = Math.max(member.lastChildEnd, time);
    this.settle(member);
  }

  /** Ends an exited member once nothing under it is open. */
  private settle(member: Member): void {
    if (member.ended || member.exitAt === undefined || member.pending > 0) return;
    member.ended = true;
    const time = Math.max(member.exitAt, member.lastChildEnd);
    this.run.end(member.opened, time);
    if (this.members.get(member.key) === member) this.members.delete(member.key);
    if (member.parent) this.childEnded(member.parent, time);
  }
}

function within(member: Member, ancestor: Member): boolean {
  for (let current: Member | undefined = member; current; current = current.parent) if (current === ancestor) return true;
  return false;
}
