/**
 * One event hub per top-level run: the single path every typed event takes (the run's other state,
 * its store and stream, is its context, context.ts). Stage emits arrive from the emit helper with the
 * emitting stage's runtime id (emitFrom, synchronously, at the call site: events/emit.ts), derived
 * events (run failures) through publish(); the emits that are no typed event come through a
 * footprintjs emit recorder (attached by the runner when a chart of the tree may raise them, run/chart.ts
 * runtimeChart) and go to the instruments that asked for them (subscribeOthers). The hub stamps the envelope (run id, stage, member, composition path,
 * high-resolution time) once, then hands it to the run's instruments, to the stream of a streamed
 * run (runner.stream()), and to the listeners of the emitting member and every runner above it.
 * A model call's chunks (llm_chunk) skip the instruments: telemetry learns of a streamed call from
 * llm_end's totals, so no instrument pays per chunk.
 */
import type { EmitEvent, EmitRecorder } from 'footprintjs';
import { isFootprintEvent, now, stageIds, type EventPayloads, type EventType, type TypedEvent, type TypedEventSink } from '../../events/index.js';
import type { MemberEntry, MemberIndex } from './members.js';
import type { HubListener, OtherEmitListener, RunEvents, StageExecution, StageListener } from './runEvents.js';
import type { StreamSink } from './runStream.js';

const EVENTS_RECORDER_ID = 'footprint-otel.events';
/** The one event the instruments never see (see the header). */
const LISTENERS_ONLY: EventType = 'footprint.call.llm_chunk';

export interface EventHubOptions {
  conversationId?: string;
  /** Set for a streamed run: its parts' sink, which hears every event after the instruments. */
  stream?: StreamSink;
}

/** An instrument's (or a tracker's) subscription: every event, or those of `types`. */
interface Subscription {
  listener: HubListener;
  types?: ReadonlySet<EventType>;
}

/** Where a subflow's events go: its path and the member chain that hears them (members.ts). */
interface Place {
  path: readonly string[];
  chain: MemberEntry[];
}

export class EventHub implements RunEvents, TypedEventSink {
  private readonly subscribers: Subscription[] = [];
  private readonly otherListeners: OtherEmitListener[] = [];
  /** Events raised while another is being delivered (by a subscriber or listener of that one). */
  private readonly pending: { event: TypedEvent; chain: MemberEntry[] }[] = [];
  private delivering = false;
  readonly recorder: EmitRecorder;
  private readonly conversationId?: string;
  private readonly stream?: StreamSink;
  /** Each subflow's place, by its key ('' the top-level chart), found once per run. */
  private readonly places = new Map<string, Place>();
  /** Who hears the run's stage starts and ends (subscribeStages), when its stages report them. */
  private readonly stageListeners: StageListener[] = [];
  /**
   * Whether the run's stages report their starts and ends here: set by the runner when every chart of
   * its tree is the runtime's own (chart.ts runtimeChart), whose every stage body is wrapped by stage().
   */
  reportsStages = false;
  /** The last emitting stage and its place: a stage's events usually come together. */
  private lastStage = '';
  private lastPlace?: Place;

  constructor(
    private readonly runId: string,
    private readonly members: MemberIndex,
    options: EventHubOptions = {},
  ) {
    this.conversationId = options.conversationId;
    this.stream = options.stream;
    this.recorder = {
      id: EVENTS_RECORDER_ID,
      onEmit: (event: EmitEvent) => {
        if (isFootprintEvent(event.name)) this.emitFrom(event.name, event.payload, event.runtimeStageId);
        else for (const listener of this.otherListeners) listener(event);
      },
    };
  }

  /** Instruments subscribe here; they see every event of the run (or those of `types`), before user listeners. */
  subscribe(listener: HubListener, types?: readonly EventType[]): () => void {
    return addTo(this.subscribers, types === undefined ? { listener } : { listener, types: new Set(types) });
  }

  /**
   * Whether anything of the run reads events of `type`: a subscriber of every event or of that type,
   * the stream of a streamed run, or a listener of a runner of the tree (a listener added later makes
   * it true from then on). An emitter leaves out of such an event's payload what only readers need
   * when none does (llm_start's input parts, agent/stages/callLLM.ts).
   */
  hears(type: EventType): boolean {
    if (this.stream) return true;
    for (const { types } of this.subscribers) if (types === undefined || types.has(type)) return true;
    for (const entry of this.members.entries()) if (entry.runner.listeners.hears(type)) return true;
    return false;
  }

  /**
   * Instruments hear the run's other emits here (the OTel bridge makes them span events): the hub's
   * recorder already sees every emit, so an instrument needs no footprintjs recorder of its own for
   * them (each recorder with an emit hook costs footprintjs a dispatch per emit). The listener guards itself.
   */
  subscribeOthers(listener: OtherEmitListener): () => void {
    return addTo(this.otherListeners, listener);
  }

  /**
   * Hears the start and the end of every stage execution of the run where footprintjs's scope hooks
   * onStageStart and onStageEnd would (the start right before the body; the end once the body
   * returned or its promise settled, a microtask before footprintjs's own await resumes; a stage that
   * throws or pauses by throwing reports no end), without a footprintjs recorder on the executor:
   * with one attached, footprintjs builds and dispatches a stage-start, a stage-end and a commit
   * notice for every stage, and attaches the recorder to every stage's scope. Undefined when the
   * run's stages do not report themselves (a chart of the tree is not the runtime's own): the caller
   * attaches a recorder instead. A listener that throws loses its own report, never the stage.
   */
  subscribeStages(listener: StageListener): (() => void) | undefined {
    return this.reportsStages ? addTo(this.stageListeners, listener) : undefined;
  }

  /** Whether anything hears the run's stage starts and ends (a stage names its execution only then: context.ts stageEnv). */
  get hearsStages(): boolean {
    return this.stageListeners.length > 0;
  }

  /** A stage execution started (chart.ts stage(), before its body). */
  stageStarted(stage: StageExecution): void {
    this.tellStages('started', stage);
  }

  /** A stage execution's body returned or settled without throwing. */
  stageEnded(stage: StageExecution): void {
    this.tellStages('ended', stage);
  }

  private tellStages(report: keyof StageListener, stage: StageExecution): void {
    for (const listener of this.stageListeners) {
      try {
        listener[report](stage);
      } catch {
        // instruments guard themselves; a failure here must never reach the stage
      }
    }
  }

  /** Emits a derived event (one not raised by a stage body), attributed to the given stage. */
  publish<K extends EventType>(type: K, payload: EventPayloads[K], runtimeStageId: string): void {
    this.emitFrom(type, payload, runtimeStageId);
  }

  /** Delivers a typed event raised by the stage `runtimeStageId` (events/emit.ts). */
  emitFrom(type: EventType, payload: unknown, runtimeStageId: string): void {
    if (runtimeStageId !== this.lastStage || !this.lastPlace) {
      this.lastStage = runtimeStageId;
      this.lastPlace = this.placeOf(stageIds.subflowKeyOf(runtimeStageId));
    }
    this.deliver(type, payload, runtimeStageId, this.lastPlace);
  }

  private placeOf(key: string): Place {
    let place = this.places.get(key);
    if (!place) {
      const path = Object.freeze(stageIds.pathOfKey(key));
      place = { path, chain: this.members.chain(path) };
      this.places.set(key, place);
    }
    return place;
  }

  private deliver(type: EventType, payload: unknown, runtimeStageId: string, { path: subflowPath, chain }: Place): void {
    const owner = chain[0];
    if (!owner) return;
    const agentId = (payload as { agentId?: unknown } | null)?.agentId;
    const event: TypedEvent = {
      type,
      payload: payload as TypedEvent['payload'],
      meta: {
        runId: this.runId,
        runtimeStageId,
        timestamp: now(),
        member: owner.member,
        agentId: typeof agentId === 'string' ? agentId : undefined,
        compositionPath: owner.compositionPath,
        route: owner.route,
        subflowPath: subflowPath as string[],
        conversationId: this.conversationId,
      },
    };
    // Delivery is in order: an event raised by a subscriber while another is being delivered waits
    // until every subscriber and listener has seen the one that caused it. Still synchronous. The
    // event that finds no delivery under way is delivered at once, without a place in the queue.
    if (this.delivering) {
      this.pending.push({ event, chain });
      return;
    }
    this.delivering = true;
    try {
      this.dispatch(event, chain);
      for (let next = this.pending.shift(); next; next = this.pending.shift()) this.dispatch(next.event, next.chain);
    } finally {
      this.delivering = false;
      this.pending.length = 0;
    }
  }

  private dispatch(event: TypedEvent, chain: MemberEntry[]): void {
    if (event.type !== LISTENERS_ONLY) {
      for (const { listener, types } of this.subscribers) {
        try {
          if (types === undefined || types.has(event.type)) listener(event);
        } catch {
          // instruments guard themselves; a failure here must never reach the run
        }
      }
    }
    this.stream?.onEvent(event);
    for (const entry of chain) entry.runner.listeners.dispatch(event);
  }
}

/** Adds `listener` to `list`; returns what takes it out again. */
function addTo<T>(list: T[], listener: T): () => void {
  list.push(listener);
  return () => {
    const i = list.indexOf(listener);
    if (i >= 0) list.splice(i, 1);
  };
}
