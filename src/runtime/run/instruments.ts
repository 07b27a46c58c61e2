/**
 * Run instruments: the one way anything outside the runtime takes part in a run. The OTel bridge,
 * the metrics and the skill-path recorder are all instruments: at the start of every top-level run (and
 * every resume) each registered instrument may attach footprintjs recorders to the executor,
 * subscribe to the run's typed events, wrap the executor call, add data to a pause checkpoint, and
 * hear how the run ended. The runtime never imports them; they register themselves.
 */
import type { FlowChartExecutor } from 'footprintjs';
import type { RunOutcome } from './outcome.js';
import type { RunEvents } from './runEvents.js';
import type { RunTree } from './runTree.js';

/** What an instrument gets of a run: its ids, the runner tree (read-only), its events, and the executor to attach recorders to. */
export interface RunStart {
  readonly runId: string;
  readonly conversationId?: string;
  /** The tree of the runner that runs (the same object at every run of that runner). */
  readonly tree: RunTree;
  readonly events: RunEvents;
  /**
   * For recorders: it runs the chart without its build-time structure, so its getRuntimeStructure() is
   * undefined (executedChart.ts). An instrument that stays out of the run (start returns undefined)
   * leaves it alone: when no instrument takes part, the runner may run its next run on it.
   */
  readonly executor: FlowChartExecutor;
  /** Present when this start is a resume: what instruments stored at pause time. */
  readonly resumed?: { readonly carry: Record<string, unknown>; readonly pausedAt: number };
  /**
   * Present when the run continues a stored conversation (conversationId): one entry per run that
   * appended to the loaded thread, oldest first, with what instruments carried when it appended
   * (RunSession.appending). Filled once the thread is loaded, inside `around`, before the first stage.
   */
  readonly restored?: readonly RestoredEntry[];
}

/** A loaded conversation's entry: the run that appended it and its instruments' carry. */
export interface RestoredEntry {
  readonly runId: string;
  readonly carry: Record<string, unknown>;
}


export interface RunSession {
  /** Wraps the executor call (the OTel bridge contains its context here). */
  around?<T>(call: () => Promise<T>): Promise<T>;
  /** The run paused: data to carry in the checkpoint for the resumed run (e.g. a traceparent). */
  paused?(): Record<string, unknown> | void;
  /**
   * The run is about to append its messages to a stored conversation: data to keep with them, handed
   * to the instruments of a later run that loads them (RunStart.restored). Plain JSON.
   */
  appending?(): Record<string, unknown> | void;
  /** The run ended; the outcome is decided once for all instruments (see outcome.ts). Called exactly once. */
  finished?(outcome: RunOutcome): void;
}

export interface RunInstrument {
  readonly id: string;
  /** Return a session to take part in this run, or undefined to stay out of it (zero cost). */
  start(run: RunStart): RunSession | undefined;
}

/** By id, the instrument that takes part in runs: the latest registered under it and not yet unregistered. */
const registry = new Map<string, RunInstrument>();
/** By id, the instruments it replaced and that are still registered, oldest first. */
const replaced = new Map<string, RunInstrument[]>();

/**
 * Registers (or replaces, by id) an instrument for every run of every runner in this process. The
 * returned function unregisters it; if it had replaced one still registered, that one takes part in
 * runs again (startTelemetry's shutdown gives the app back the tracing instrument it registered).
 */
export function registerInstrument(instrument: RunInstrument): () => void {
  const { id } = instrument;
  const previous = registry.get(id);
  if (previous) replaced.set(id, [...(replaced.get(id) ?? []), previous]);
  registry.set(id, instrument);
  return () => {
    const waiting = replaced.get(id) ?? [];
    if (registry.get(id) === instrument) {
      const back = waiting.pop();
      if (back) registry.set(id, back);
      else registry.delete(id);
    } else {
      const at = waiting.lastIndexOf(instrument);
      if (at >= 0) waiting.splice(at, 1);
    }
    if (waiting.length === 0) replaced.delete(id);
  };
}

export function registeredInstruments(): Iterable<RunInstrument> {
  return registry.values();
}
