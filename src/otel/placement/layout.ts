/**
 * Where spans go. The same typed events and footprintjs hooks are placed by one of three layouts,
 * chosen from where the run comes from and the detail level (see chooseLayout.ts):
 *
 * - the executor layout (a plain footprintjs executor, detail 'full'): a span per stage, subflow
 *   and fork, from footprintjs's scope and flow hooks;
 * - the runner layout (a runner run, detail 'full'): a span per stage from the scope hooks only,
 *   under member spans opened at their first stage and named by typed events;
 * - the semantic layout (detail 'semantic'): only member spans, opened and closed by typed events.
 *
 * The GenAI layer asks a layout where an event lands, never the hooks, so every mode shares one
 * mapping of typed events to spans (genai/eventSpans.ts).
 */
import type { Attributes } from '@opentelemetry/api';
import type { CombinedRecorder } from 'footprintjs';
import { stageIds } from '../../events/index.js';
import type { OpenSpan, RunSpans } from './runSpans.js';

/** What an agent or composition span is called and carries (kept across a pause, by subflow path). */
export interface MemberIdentity {
  name: string;
  attributes: Attributes;
}

/** The footprintjs hooks a layout places spans from (the trace recorder attaches them). */
export type RecorderHooks = Omit<CombinedRecorder, 'id' | 'delivery'>;

/** Wraps a hook so that it can never throw into footprintjs (the wiring passes its guard in). */
export type HookGuard = <E>(where: string, hook: (event: E) => void) => (event: E) => void;

/** How the run ended, as far as a layout cares: when, and the stage that threw if it failed. */
export interface LayoutEnd {
  time: number;
  /** `recordedBelow`: a span under the stage (a failed chat call) already holds the exception event. */
  failure?: { error: unknown; stage?: string; type?: string; recordedBelow: boolean };
}

/** A failure as it passes up through member spans: the message and the low-cardinality error.type. */
export interface MemberFailure {
  message: string;
  type: string;
}

/** What every layout does. */
export interface SpanLayout {
  /** The footprintjs hooks it needs, each wrapped in `guard` ({} when typed events alone drive it). */
  hooks(guard: HookGuard): RecorderHooks;
  /** The open span of a stage execution, if this layout has stage spans. */
  stage(runtimeStageId: string): OpenSpan | undefined;
  /** The innermost open container of a subflow path (subflow or member span); the run span at worst. */
  container(path: readonly string[]): OpenSpan;
  /**
   * The run ends: settle what only the layout knows (a stage that threw never got onStageEnd).
   * Returns true when it recorded the failure's exception event on a span of its own.
   */
  finish?(end: LayoutEnd): boolean;
}

/**
 * The span an event of the stage `runtimeStageId` lands on (and the parent of a span it opens): the
 * stage's own span while the layout has one open, else the innermost open container of the stage's
 * subflow path (`path`, when the caller already has it, as a typed event's meta does).
 */
export function emitterSpan(layout: SpanLayout, runtimeStageId: string, path?: readonly string[]): OpenSpan {
  return layout.stage(runtimeStageId) ?? layout.container(path ?? stagePath(runtimeStageId));
}

/** The top-level chart's subflow path, shared: never written to. */
const TOP_LEVEL: readonly string[] = Object.freeze([]);

/**
 * The subflow path of a runtime stage id, read-only. A stage of the top-level chart (no `/` in its
 * id: most stages of a run) gets the one shared empty path instead of a parse and a new array per stage.
 */
export function stagePath(runtimeStageId: string): readonly string[] {
  return runtimeStageId.includes('/') ? stageIds.subflowPathOf(runtimeStageId) : TOP_LEVEL;
}

/** What a member layout starts from: the run's spans and the identities of its members. */
export interface MemberLayoutInit {
  run: RunSpans;
  /** Member spans that were open when the run paused (a resumed run names them again), by path key. */
  carried: Record<string, MemberIdentity>;
  /** Members known before the run starts, by path key (memberDirectory): their spans start named, with the sampling-relevant attributes. */
  expected?: Record<string, MemberIdentity>;
}

/** A layout whose member spans (agents, compositions) follow typed events: the layouts of runner runs. */
export interface MemberLayout extends SpanLayout {
  /** The member mounted at `path` (the run itself for []) starts: the span that stands for it. */
  enterMember(path: readonly string[], identity: MemberIdentity, time: number): OpenSpan;
  /** The member at `path` ended. */
  exitMember(path: readonly string[], time: number): void;
  /** The member at `path` failed (a Parallel branch that threw): its span fails and ends. */
  failMember(path: readonly string[], failure: MemberFailure, time: number): void;
  /** The run failed: every member span still open failed with it. */
  failMembers(failure: MemberFailure): void;
  /** Identities of the members that are open now (what a pause carries), by subflow path key. */
  openMembers(): Record<string, MemberIdentity>;
}
