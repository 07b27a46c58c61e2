/**
 * The one emit helper. Stage code calls `emit(scope, type, payload)`; the name and payload are checked
 * against the catalog at compile time. A stage of a runner's run hands the event to the run's event
 * hub directly, with the runtime stage id its scope was made for (both travel in the stage's env,
 * run/stageScope.ts): footprintjs's emit channel would build an event object per emit, split the
 * stage id into its subflow path and dispatch it through a recorder, for the same envelope. A chart
 * run outside a runner (on a bare executor) has no hub: its emits take footprintjs's channel, where
 * that executor's recorders hear them. The hub receives the event synchronously at the call site and
 * stamps the high-resolution time, so "when" is exact even for async stages.
 */
import { EVENT_TYPES, type EventPayloads, type EventType } from './catalog.js';

/** Where a run's typed events go: its event hub (run/hub.ts). */
export interface TypedEventSink {
  emitFrom(type: EventType, payload: unknown, runtimeStageId: string): void;
}

/** The env key of what the stage's run emits to: the run's context, whose `events` is its hub. */
export const EMIT_TARGET = Symbol('footprint-otel.runContext');
/** The env key of the runtime stage id the stage's scope was made for. */
export const EMITTING_STAGE = Symbol('footprint-otel.stage');

interface StageEnv {
  readonly [EMIT_TARGET]?: { readonly events: TypedEventSink };
  readonly [EMITTING_STAGE]?: string;
}

/** The part of a footprintjs scope the helper needs (every TypedScope has it). */
export interface EmitScope {
  $emit(name: string, payload?: unknown): void;
  $getEnv(): object;
}

export function emit<K extends EventType>(scope: EmitScope, type: K, payload: EventPayloads[K]): void {
  const env = scope.$getEnv() as StageEnv;
  const stage = env[EMITTING_STAGE];
  if (stage === undefined) scope.$emit(type, payload);
  else env[EMIT_TARGET]!.events.emitFrom(type, payload, stage);
}

const CATALOG = new Set<string>(EVENT_TYPES);

/** True when `name` is an event of the catalog (events/catalog.ts). */
export function isFootprintEvent(name: string): name is EventType {
  return CATALOG.has(name);
}
