/**
 * routeRecorder(): records the skill-graph route an agent turn took (hops, path, rejections, spend)
 * and guards it against loops, EMITTING each trip as `footprint.route.trip` at the stage where it
 * was detected, the moment it is detected. With onTrip 'stop' or 'escalate' it also signals the turn,
 * which ends stopped early or continues on its escalation brain.
 *
 * It is a run instrument: an agent with a skill graph brings one to every run it takes part in (see
 * defaultRouteGuard), or one can be registered for every run. State is per run id, so concurrent runs
 * never mix; getters read the run given by id, or else the latest run that recorded a hop. A paused
 * run carries its record and guards in the checkpoint, so a resumed run (in any process) goes on
 * counting where it stopped.
 */
import type { EventPayloads, EventType, TypedEvent } from '../events/index.js';
import { ConfigError, numberSetting, type RunHub, type RunInstrument, type RunSession, type RunStart } from '../runtime/index.js';
import { RunBook } from './runBook.js';
import { guardCost, guardHop, guardRejection, newTurnGuard, type Finding, type GuardLimits, type TurnGuard } from './turnGuard.js';
import type { OnTrip, RouteHop, RouteRecorderOptions, RouteRejection, RouteRun, RouteTrip } from './types.js';

export interface RouteRecorder extends RunInstrument {
  /** Every cursor hop (entry, edge, model pick, stay), in order. */
  getHops(runId?: string): RouteHop[];
  /** The skills the cursor entered, in order (stays left out). */
  getPath(runId?: string): string[];
  getTrips(runId?: string): RouteTrip[];
  getRejections(runId?: string): RouteRejection[];
}

/** What a paused run carries for the recorder. */
interface Carried {
  run: RouteRun;
  turns: Record<string, TurnGuard>;
}

const ON_TRIP: readonly OnTrip[] = ['label', 'stop', 'escalate'];

export function routeRecorder(options: RouteRecorderOptions = {}): RouteRecorder {
  const limits = limitsOf(options);
  const onTrip = options.onTrip ?? 'label';
  if (!ON_TRIP.includes(onTrip)) {
    throw new ConfigError(`routeRecorder: onTrip must be one of ${ON_TRIP.join(', ')} (got ${String(onTrip)})`);
  }
  const agentId = options.agentId;
  const id = agentId === undefined ? 'footprint-otel.route' : `footprint-otel.route:${agentId}`;
  const book = new RunBook();

  const start = ({ runId, hub, resumed }: RunStart): RunSession => {
    let state = restore(resumed?.carry[id], runId);
    if (state) book.put(state.run);
    const open = (): Carried => {
      if (!state) {
        state = { run: { runId, hops: [], rejections: [], trips: [] }, turns: {} };
        book.put(state.run);
      }
      return state;
    };
    const guardOf = (turnId: string): TurnGuard => (open().turns[turnId] ??= newTurnGuard());
    const mine = (payload: { agentId: string }) => agentId === undefined || payload.agentId === agentId;

    const unsubscribe = hub.subscribe((event) => {
      if (is(event, 'footprint.route.hop')) {
        if (!mine(event.payload)) return;
        const hop = event.payload;
        open().run.hops.push({ ...hop, runtimeStageId: event.meta.runtimeStageId });
        const finding = guardHop(guardOf(hop.turnId), hop, limits);
        if (finding) trip(hub, open().run, hop, finding, onTrip, event.meta.runtimeStageId);
      } else if (is(event, 'footprint.skill.rejected')) {
        if (!mine(event.payload)) return;
        const rejection = event.payload;
        open().run.rejections.push({ ...rejection, runtimeStageId: event.meta.runtimeStageId });
        const finding = guardRejection(guardOf(rejection.turnId), rejection.current, limits);
        if (finding) trip(hub, open().run, rejection, finding, onTrip, event.meta.runtimeStageId);
      } else if (is(event, 'footprint.cost.tick')) {
        // Only turns this recorder follows: their entry hop always comes before their first call.
        const tick = event.payload;
        const guard = state?.turns[tick.turnId];
        if (guard) guardCost(guard, (tick.tokens?.input ?? 0) + (tick.tokens?.output ?? 0), tick.usd);
      }
    });
    return {
      paused: () => (state ? { [id]: state } : undefined),
      finished: unsubscribe,
    };
  };

  return {
    id,
    start,
    getHops: (runId) => [...(book.get(runId)?.hops ?? [])],
    getPath: (runId) => (book.get(runId)?.hops ?? []).filter((hop) => hop.cause !== 'stay').map((hop) => hop.to),
    getTrips: (runId) => [...(book.get(runId)?.trips ?? [])],
    getRejections: (runId) => [...(book.get(runId)?.rejections ?? [])],
  };
}

/** Records the trip, signals the turn when the action asks for it, and emits the trip event. */
function trip(
  hub: RunHub,
  run: RouteRun,
  at: { agentId: string; turnId: string; iteration: number },
  finding: Finding,
  action: OnTrip,
  runtimeStageId: string,
): void {
  const { since, ...what } = finding;
  const payload: EventPayloads['footprint.route.trip'] = {
    agentId: at.agentId,
    turnId: at.turnId,
    ...what,
    iteration: at.iteration,
    tokensSinceLoop: since.tokens,
    costSinceLoopUsd: since.costUsd,
    action,
  };
  run.trips.push({ ...payload, runtimeStageId });
  if (action !== 'label') hub.signal(at.turnId, { kind: action, reason: finding.kind });
  hub.publish('footprint.route.trip', payload, runtimeStageId);
}

function limitsOf(options: RouteRecorderOptions): GuardLimits {
  return {
    pingPongWindow: numberSetting('routeRecorder', 'pingPongWindow', options.pingPongWindow, { min: 2, max: 1_000 }, 4),
    maxRejectedRetries: numberSetting('routeRecorder', 'maxRejectedRetries', options.maxRejectedRetries, { min: 1, max: 1_000 }, 3),
  };
}

/** The carried state of a resumed run, when it is ours and well-formed. */
function restore(carried: unknown, runId: string): Carried | undefined {
  const c = carried as Partial<Carried> | undefined;
  const run = c?.run;
  const wellFormed =
    run?.runId === runId &&
    Array.isArray(run.hops) &&
    Array.isArray(run.rejections) &&
    Array.isArray(run.trips) &&
    typeof c?.turns === 'object' &&
    c.turns !== null;
  return wellFormed ? (c as Carried) : undefined;
}

function is<K extends EventType>(event: TypedEvent, type: K): event is TypedEvent<K> {
  return event.type === type;
}
