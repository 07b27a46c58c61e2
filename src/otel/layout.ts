/**
 * Where spans go. Three layouts place the same semantic spans: the stage layout (detail 'full' for
 * plain charts) has a span per stage, subflow and fork from scope + flow hooks, and a member's
 * container is its subflow mount span; the runner layout (detail 'full' for runner runs) has a span
 * per stage from scope hooks only, under member spans opened at their first stage; the member layout
 * (detail 'semantic') has only member spans, opened and closed from typed events. The semantic layer
 * asks the layout, never the hooks, so every mode shares one mapping of typed events.
 */
import type { Attributes } from '@opentelemetry/api';
import type { OpenSpan } from './runTrace.js';

/** What an agent or composition span is called and carries (kept across a pause, by subflow path). */
export interface MemberIdentity {
  name: string;
  attributes: Attributes;
}

export interface Layout {
  /** The open span of a stage execution (stage layout only). */
  stage(runtimeStageId: string): OpenSpan | undefined;
  /** The innermost open container of a subflow path (subflow or member span); the run span at worst. */
  container(path: readonly string[]): OpenSpan;
  /** The member mounted at `path` (the run itself for []) starts: the span that stands for it. */
  enterMember(path: readonly string[], identity: MemberIdentity, time: number): OpenSpan;
  /** The member at `path` ended. */
  exitMember(path: readonly string[], time: number): void;
  /** The member at `path` failed (a Parallel branch that threw): its span fails and ends. */
  failMember(path: readonly string[], message: string, time: number): void;
  /** The run failed: every member span still open failed with it. */
  failMembers(message: string): void;
  /** Identities of the members that were open when the run paused, by subflow path. */
  openMembers(): Record<string, MemberIdentity>;
}
