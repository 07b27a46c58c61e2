/**
 * A run's events as an instrument (and the outcome tracker) hears them: the typed events, and the
 * emits that are no typed event. The event hub (hub.ts) is the one source; this is all of it a
 * listener outside the runtime's own machinery gets. The hub also reports its stages' executions to
 * this package's instruments (StageExecution, stageReports.ts), which RunEvents leaves out.
 */
import type { EmitEvent } from 'footprintjs';
import type { EventType, TypedEvent } from '../../events/index.js';

export type HubListener = (event: TypedEvent) => void;

/**
 * One execution of a stage, as a run's stage bodies report its start and end to the run's hub
 * (hub.ts subscribeStages): the fields of footprintjs's StageEvent that name it.
 */
export interface StageExecution {
  readonly stageName: string;
  readonly stageId: string;
  readonly runtimeStageId: string;
  /** The fork branch namespace the stage runs in (footprintjs's pipelineId). */
  readonly pipelineId: string;
}

/** Hears a run's stage executions start and end (hub.ts subscribeStages). */
export interface StageListener {
  started(stage: StageExecution): void;
  ended(stage: StageExecution): void;
}

/** Hears the run's emits that are not typed events (user `$emit`, `$debug`, `$metric`), as footprintjs gives them. */
export type OtherEmitListener = (event: EmitEvent) => void;

export interface RunEvents {
  /**
   * Every typed event of the run but a model call's chunks, before user listeners, or only those of
   * `types` when given; returns what unsubscribes. A run leaves out of a payload what only its readers
   * need when nothing reads events of its type (llm_start's input parts, hub.ts `hears`): a listener
   * that reads a few types says which.
   */
  subscribe(listener: HubListener, types?: readonly EventType[]): () => void;
  /** The run's other emits; the listener guards itself. */
  subscribeOthers(listener: OtherEmitListener): () => void;
}
