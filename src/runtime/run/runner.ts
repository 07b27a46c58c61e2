/**
 * The base of every runner (Agent, LLMCall, the compositions, the router step). A runner owns a
 * footprintjs chart, built once; run() executes it in a fresh executor with the run's event hub and
 * the registered instruments attached; mounting a runner in a composition reuses the same chart as a
 * subflow, so a composed run is one executor, one run, one trace.
 *
 * Chart contract shared by all runners: input is `$getArgs().message`; the final stage writes the
 * answer to scope key `output` and returns it.
 */
import { FlowChartExecutor, type FlowChart } from 'footprintjs';
import {
  ListenerSet,
  markOwnText,
  ownTextOf,
  stageIds,
  type EventPattern,
  type EventType,
  type Listener,
  type RunnerKind,
  type Unsubscribe,
} from '../../events/index.js';
import { isPaused as isPausedCheckpoint, makeCheckpoint, readCheckpoint, type Paused } from './checkpoint.js';
import { withHub } from './context.js';
import { describeError, errorType, failureOrigin, RunFailedError } from './errors.js';
import { FIXED_ERROR_TYPES } from './errorTypes.js';
import { RunHub } from './hub.js';
import { newId } from './ids.js';
import { registeredInstruments, type RunInstrument, type RunSession, type RunStart } from './instruments.js';
import { MemberIndex } from './members.js';
import { OutcomeTracker, type RunOutcome } from './outcome.js';
import { RunStore, type SavedStore } from './store.js';

export type RunInput = string | { message: string };

export interface RunOptions {
  signal?: AbortSignal;
  sessionId?: string;
}

export type RunResult = string | Paused;

export interface MountedMember {
  mountId: string;
  runner: Runner;
  /** What the member does, as its composition describes it (an llmSwarm roster entry's description). */
  description?: string;
}

/**
 * What a runner's model settings are before it runs: telemetry names a span with them when the
 * span starts (the GenAI conventions mark provider and model as sampling-relevant).
 */
export interface RunnerProfile {
  provider?: string;
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

/** Thrown when run() is cancelled through its AbortSignal. */
export class RunCancelledError extends Error {
  override readonly name = 'RunCancelledError';
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
  constructor(
    readonly runId: string,
    cause: unknown,
  ) {
    super(`run ${runId} was cancelled`, { cause });
  }
}

export abstract class Runner {
  abstract readonly kind: RunnerKind;
  abstract readonly id: string;
  abstract readonly name: string;
  /** Listeners of this runner; they also hear every member mounted below it. */
  readonly listeners = new ListenerSet();
  private builtChart?: FlowChart;
  private index?: MemberIndex;
  private treeInstruments?: RunInstrument[];

  on<K extends EventType>(pattern: K, listener: Listener<K>): Unsubscribe;
  on(pattern: EventPattern, listener: Listener): Unsubscribe;
  on(pattern: EventPattern, listener: Listener<any>): Unsubscribe {
    return this.listeners.on(pattern, listener);
  }

  /** The footprintjs chart of this runner (built on first use, then reused). */
  chart(): FlowChart {
    return (this.builtChart ??= this.buildChart());
  }

  protected abstract buildChart(): FlowChart;

  /** The runners mounted inside this one, by mount id. */
  members(): readonly MountedMember[] {
    return [];
  }

  /**
   * Whether the member mounted at `mountId` runs because this runner chose it (a Conditional's
   * branch, a swarm's agent): its events then carry one more route segment. Not a swarm's router.
   */
  routesTo(_mountId: string): boolean {
    return false;
  }

  /** Its model settings, for runners that call a model (agents, LLM calls, routers); none by default. */
  profile(): RunnerProfile {
    return {};
  }

  /**
   * The model call it makes as a step of its own, mounted as a subflow but no member (a router's
   * decision): telemetry shows it as the agent invocation it is.
   */
  modelCallMount(): string | undefined {
    return undefined;
  }

  /** Instruments this runner brings to every run it takes part in (e.g. an agent's route recorder). */
  ownInstruments(): readonly RunInstrument[] {
    return [];
  }

  run(input: RunInput, options: RunOptions = {}): Promise<RunResult> {
    const message = typeof input === 'string' ? input : input?.message;
    if (typeof message !== 'string') {
      return Promise.reject(new TypeError('run() takes a string or { message: string }'));
    }
    const signal = options.signal;
    return this.execute(newId('run'), options, undefined, (executor) =>
      executor.run({ input: { message }, env: signal ? { signal } : undefined }),
    );
  }

  /** Continues a paused run from its checkpoint (on this or a new instance, in any process). */
  async resume(checkpoint: unknown, answer: unknown, options: RunOptions = {}): Promise<RunResult> {
    const saved = readCheckpoint(checkpoint, this);
    const signal = options.signal;
    return this.execute(saved.runId, options, { carry: saved.carry, pausedAt: saved.pausedAt, store: saved.store }, (executor) =>
      executor.resume(saved.flow, answer, { env: signal ? { signal } : undefined }),
    );
  }

  private async execute(
    runId: string,
    options: RunOptions,
    resumed: (RunStart['resumed'] & { store: SavedStore }) | undefined,
    invoke: (executor: FlowChartExecutor) => Promise<unknown>,
  ): Promise<RunResult> {
    const index = (this.index ??= new MemberIndex(this));
    const executor = new FlowChartExecutor(this.chart(), { readTracking: 'off', writeTracking: 'off' });
    const hub = new RunHub(runId, index, options.sessionId, new RunStore(resumed?.store));
    executor.attachEmitRecorder(hub.recorder);
    const outcome = new OutcomeTracker(hub);
    const start: RunStart = { runId, runner: this, executor, hub, sessionId: options.sessionId, resumed: resumed && { carry: resumed.carry, pausedAt: resumed.pausedAt } };
    const sessions = this.startSessions(start, index);

    let call = () => withHub(hub, () => invoke(executor));
    for (const session of sessions) {
      if (session.around) {
        const inner = call;
        call = () => session.around!(inner);
      }
    }

    let result: unknown;
    try {
      result = await call();
    } catch (error) {
      const origin = failureOrigin(error) ?? { member: { kind: this.kind, id: this.id }, stage: 'unknown' };
      const cancelled = options.signal?.aborted === true;
      hub.publish(
        'footprint.run.failed',
        {
          member: origin.member.id,
          memberKind: origin.member.kind,
          stage: origin.stage,
          error: { type: cancelled ? FIXED_ERROR_TYPES.cancelled : errorType(error), message: describeError(error), ...ownTextOf(error) },
        },
        stageIds.ROOT_STAGE_ID,
      );
      finish(sessions, outcome.failed({ error, origin, cancelled }));
      throw cancelled ? new RunCancelledError(runId, error) : new RunFailedError(runId, origin.member, origin.stage, error);
    }

    if (isPausedCheckpoint(result)) {
      const carry: Record<string, unknown> = {};
      for (const session of sessions) Object.assign(carry, safely(() => session.paused?.()) ?? {});
      const checkpoint = makeCheckpoint(this, runId, executor.getCheckpoint() ?? (result as any).checkpoint, carry, hub.store.save());
      finish(sessions, outcome.paused());
      return { paused: true, checkpoint, question: checkpoint.question };
    }
    const output = typeof result === 'string' ? result : result === undefined ? '' : JSON.stringify(result);
    finish(sessions, outcome.answered(output));
    return output;
  }

  private startSessions(start: RunStart, index: MemberIndex): RunSession[] {
    if (!this.treeInstruments) {
      this.treeInstruments = [];
      for (const entry of index.entries()) this.treeInstruments.push(...entry.runner.ownInstruments());
    }
    const sessions: RunSession[] = [];
    for (const instrument of [...registeredInstruments(), ...this.treeInstruments]) {
      const session = safely(() => instrument.start(start));
      if (session) sessions.push(session);
    }
    return sessions;
  }
}

function finish(sessions: RunSession[], outcome: RunOutcome): void {
  for (const session of sessions) safely(() => session.finished?.(outcome));
}

/** Instruments must never break a run: anything they throw is dropped here. */
function safely<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}
