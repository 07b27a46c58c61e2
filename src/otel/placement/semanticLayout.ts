/**
 * The semantic layout (detail 'semantic'): no stage spans, only a span per agent or composition
 * member, opened at its turn_start / composition.enter and ended at turn_end / composition.exit (or
 * with the run). Members are keyed by their subflow mount path, and a member's parent is the nearest
 * open member above it. After a resume, members that were open at the pause are reopened as soon as
 * one of their events arrives (their start events are not repeated).
 */
import { stageIds } from '../../events/index.js';
import { ATTR_GEN_AI_AGENT_DESCRIPTION, markFailed } from '../encoding/index.js';
import { KnownMembers } from './knownMembers.js';
import type { MemberFailure, MemberIdentity, MemberLayout, MemberLayoutInit, RecorderHooks } from './layout.js';
import type { OpenSpan, RunSpans } from './runSpans.js';

interface Member {
  opened: OpenSpan;
  identity: MemberIdentity;
}

export class SemanticLayout implements MemberLayout {
  private readonly members = new Map<string, Member>();
  private readonly reopened = new Set<string>();
  private readonly run: RunSpans;
  private readonly known: KnownMembers;

  constructor(init: MemberLayoutInit) {
    this.run = init.run;
    this.known = new KnownMembers(init);
  }

  /** Typed events alone drive it: no footprintjs hook, so the narrative stays off. */
  hooks(): RecorderHooks {
    return {};
  }

  /** No stage spans in this detail level. */
  stage(): undefined {
    return undefined;
  }

  container(path: readonly string[]): OpenSpan {
    this.reopenCarried(path);
    return stageIds.nearest(path, (key) => this.members.get(key))?.opened ?? this.run.root;
  }

  enterMember(path: readonly string[], identity: MemberIdentity, time: number): OpenSpan {
    if (path.length === 0) {
      this.run.root.span.updateName(identity.name);
      this.run.root.span.setAttributes(identity.attributes);
      return this.run.root;
    }
    const key = stageIds.pathKey(path);
    const existing = this.members.get(key);
    if (existing) return existing.opened;
    const parent = this.container(path.slice(0, -1));
    // Field by field, no spread before a key: on Node 20's V8 that is a slow runtime call, and this runs per member span.
    const described: MemberIdentity = { name: identity.name, attributes: this.withDescription(key, identity) };
    const opened = this.run.start(described.name, parent, { attributes: described.attributes, startTime: time });
    this.members.set(key, { opened, identity: described });
    return opened;
  }

  /** An agent's description comes from its composition (the runner tree), not from its events: set at start, as in full detail. */
  private withDescription(key: string, identity: MemberIdentity): MemberIdentity['attributes'] {
    const description = this.known.expected(key)?.attributes[ATTR_GEN_AI_AGENT_DESCRIPTION];
    if (description === undefined) return identity.attributes;
    const attributes = Object.assign({}, identity.attributes);
    attributes[ATTR_GEN_AI_AGENT_DESCRIPTION] = description;
    return attributes;
  }

  exitMember(path: readonly string[], time: number): void {
    const key = stageIds.pathKey(path);
    const member = this.members.get(key);
    if (!member) return;
    this.members.delete(key);
    this.run.end(member.opened, time);
  }

  failMember(path: readonly string[], failure: MemberFailure, time: number): void {
    const member = this.members.get(stageIds.pathKey(path));
    if (!member) return;
    markFailed(member.opened.span, failure);
    this.exitMember(path, time);
  }

  failMembers(failure: MemberFailure): void {
    for (const member of this.members.values()) markFailed(member.opened.span, failure);
  }

  openMembers(): Record<string, MemberIdentity> {
    const open: Record<string, MemberIdentity> = {};
    for (const [key, member] of this.members) if (this.run.isOpen(member.opened)) open[key] = member.identity;
    return open;
  }

  private reopenCarried(path: readonly string[]): void {
    // Every event asks for its container: once each carried member is back (none, unless resumed), there is nothing to look for.
    if (this.reopened.size === this.known.carriedCount) return;
    for (const enclosing of stageIds.enclosingPaths(path)) {
      const key = stageIds.pathKey(enclosing);
      const identity = this.known.carried(key);
      if (identity && !this.reopened.has(key) && !this.members.has(key)) {
        this.reopened.add(key);
        // It has been open since the resumed run began: its start event is not repeated.
        this.enterMember(enclosing, identity, this.run.startTime);
      }
    }
  }
}
