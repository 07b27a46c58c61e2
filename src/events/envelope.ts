/**
 * The shape every listener receives: `{ type, payload, meta }`. `meta` says which run, which stage,
 * when, and which member (agent or composition) of a composed run emitted the event.
 */
import type { EventPayloads, EventType, RunnerKind } from './catalog.js';

export interface MemberRef {
  kind: RunnerKind;
  id: string;
}

export interface EventMeta {
  /** Stable across pause and resume: a resumed run keeps the id of the run it continues. */
  runId: string;
  /** footprintjs runtime stage id of the stage that emitted the event ('[subflow/]stage#n'). */
  runtimeStageId: string;
  /** Epoch ms with a sub-ms fraction, from the project's one clock. */
  timestamp: number;
  /** The runner (agent or composition) whose stage emitted the event. */
  member: MemberRef;
  /** Set when an agent emitted the event. */
  agentId?: string;
  /** From the top-level runner down to the emitting member, as 'kind:id'. */
  compositionPath: string[];
  /**
   * The routing choices in force for the emitting member: one 'composition>branch' segment per routing
   * composition above it (Conditional, swarm), joined by '/', e.g. 'desk>billing'. '' when none.
   * Bounded by the rosters, so it is safe as a metric attribute.
   */
  route: string;
  /** The footprintjs subflow mount path of the emitting stage. */
  subflowPath: string[];
  /** The conversation the run continues (RunOptions.conversationId). */
  conversationId?: string;
}

export interface TypedEvent<K extends EventType = EventType> {
  type: K;
  payload: EventPayloads[K];
  meta: EventMeta;
}

/** A listener for one event type, or (with a wildcard) for a union of them. */
export type Listener<K extends EventType = EventType> = (event: TypedEvent<K>) => void;

/** What `on(...)` accepts: an exact type, a domain wildcard, or everything. */
export type EventPattern = EventType | `footprint.${string}.*` | '*';

export type Unsubscribe = () => void;
