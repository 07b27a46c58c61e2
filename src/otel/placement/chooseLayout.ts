/**
 * Which layout places a run's spans: a runner run (typed events from its hub) gets the runner layout
 * in full detail and the semantic layout otherwise; a plain footprintjs executor (hooks only) gets
 * the executor layout in full detail and just its run span otherwise.
 */
import { ExecutorLayout } from './executorLayout.js';
import type { MemberIdentity, MemberLayout, SpanLayout } from './layout.js';
import { RunnerLayout } from './runnerLayout.js';
import type { RunSpans } from './runSpans.js';
import { SemanticLayout } from './semanticLayout.js';

/** 'full': a span per stage execution plus the GenAI spans; 'semantic': the GenAI spans only. */
export type TraceDetail = 'full' | 'semantic';

export interface RunnerLayoutChoice {
  detail: TraceDetail;
  run: RunSpans;
  /** Member spans that were open when the run paused (a resumed run names them again). */
  carried: Record<string, MemberIdentity>;
  /** The identities of the run's members known before it starts, by path key (full detail names spans at start with them; semantic detail takes descriptions from them). */
  expected?: Record<string, MemberIdentity>;
}

export function runnerLayout({ detail, run, carried, expected }: RunnerLayoutChoice): MemberLayout {
  return detail === 'full' ? new RunnerLayout({ run, carried, expected }) : new SemanticLayout({ run, carried, expected });
}

export interface ExecutorLayoutChoice {
  detail: TraceDetail;
  run: RunSpans;
  /** Whether decision evidence may show the values a rule read (content capture). */
  capture: boolean;
}

export function executorLayout({ detail, run, capture }: ExecutorLayoutChoice): SpanLayout {
  return detail === 'full' ? new ExecutorLayout({ run, capture }) : new SemanticLayout({ run, carried: {} });
}
