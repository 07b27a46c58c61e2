/**
 * What a run's result says beyond its text, gathered from the run's events as they pass through the
 * events: usage and cost over every model call (events/modelCalls.ts, the fold every other total uses),
 * which member's answer became the run's (the last agent turn whose answer is the run's text, or the
 * Parallel whose merge made it, wherever it is mounted, as the run's lineage names it; otherwise the
 * top-level runner) with the stop reason of that member's last model call, and the top-level agent
 * turn, whose messages are the run's.
 */
import { addModelCall, handleEvent, noModelCalls, type EventHandlers, type EventType, type MemberRef, type ModelCallTotals, type TypedEvent } from '../../events/index.js';
import type { RunEvents } from './runEvents.js';
import type { RunResult } from './result.js';

/** A member that made an answer: an agent turn (its answer), or a Parallel's merge (no answer text in its events). */
interface TurnEnd {
  member: MemberRef;
  path: string;
  /** Absent for a Parallel's merge. */
  answer?: string;
  finishReason?: string;
}

export class ResultTracker {
  private totals: ModelCallTotals = noModelCalls();
  private priced = true;
  /** The stop reason of each member's last answered model call, by composition path. */
  private readonly lastFinish = new Map<string, string>();
  /** Turn ends and Parallel merges, in the order they happened. */
  private readonly turnEnds: TurnEnd[] = [];
  private readonly unsubscribe: () => void;
  /** The top-level agent turn's id, once it opened (a resumed run is told it: setTopTurn). */
  topTurnId?: string;

  constructor(events: RunEvents) {
    this.unsubscribe = events.subscribe((event) => handleEvent(this.handlers, event), Object.keys(this.handlers) as EventType[]);
  }

  /**
   * Usage, cost, the answering member and its finish reason, for the run's `text`. `madeBy`: the id of
   * the member the run's lineage names as its answer's producer, when no model call is (a Parallel's merge).
   */
  settle(text: string, top: MemberRef, madeBy?: string): Pick<RunResult, 'usage' | 'cost' | 'answeredBy' | 'finishReason'> {
    this.unsubscribe();
    let answered: TurnEnd | undefined;
    for (let i = this.turnEnds.length - 1; i >= 0 && !answered; i--) {
      const end = this.turnEnds[i]!;
      if (end.answer === undefined ? end.member.id === madeBy : end.answer === text) answered = end;
    }
    const usage = { ...this.totals.tokens };
    const cost = { usd: this.totals.costUsd, priced: this.priced };
    if (!answered) return { usage, cost, answeredBy: { id: top.id, kind: top.kind, path: `${top.kind}:${top.id}` } };
    const answeredBy = { id: answered.member.id, kind: answered.member.kind, path: answered.path };
    return answered.finishReason === undefined ? { usage, cost, answeredBy } : { usage, cost, answeredBy, finishReason: answered.finishReason };
  }

  private readonly handlers: EventHandlers = {
    'footprint.call.llm_end': ({ payload, meta }) => {
      this.totals = addModelCall(this.totals, payload);
      if (!payload.cost.priced) this.priced = false;
      if (payload.stopReason !== undefined) this.lastFinish.set(pathOf(meta), payload.stopReason);
    },
    'footprint.agent.turn_start': ({ payload, meta }) => {
      if (meta.subflowPath.length === 0) this.topTurnId = payload.turnId;
    },
    'footprint.agent.turn_end': ({ payload, meta }) => {
      const path = pathOf(meta);
      this.turnEnds.push({ member: meta.member, path, answer: payload.answer, finishReason: this.lastFinish.get(path) });
    },
    'footprint.composition.exit': ({ payload, meta }) => {
      // A Parallel's merge makes its own answer (its exit names no answer text: the lineage says whether it is the run's).
      if (payload.kind === 'parallel') this.turnEnds.push({ member: meta.member, path: pathOf(meta) });
    },
  };
}

function pathOf(meta: TypedEvent['meta']): string {
  return meta.compositionPath.join('/');
}
