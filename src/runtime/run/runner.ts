/**
 * The base of every runner (Agent, LLMCall, the compositions, the router step). A runner owns a
 * footprintjs chart, built once; run() executes it in a fresh executor with the run's event hub and
 * the registered instruments attached; mounting a runner in a composition reuses the same chart as a
 * subflow, so a composed run is one executor, one run, one trace.
 *
 * stream() runs the same way with the hub handing the run's parts to a RunStream (runStream.ts),
 * and the model calls streaming; it is defined here once, so every runner streams.
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
import { isPaused as isPausedCheckpoint, makeCheckpoint, readCheckpoint, type Checkpoint } from './checkpoint.js';
import { processCheckpointStore, type CheckpointStore } from './checkpointStore.js';
import { runEnv, type RunContext } from './context.js';
import { CheckpointError, ConfigError, describeError, errorType, failureOrigin, RunFailedError } from './errors.js';
import { optionalId, optionalSignal } from './settings.js';
import { FIXED_ERROR_TYPES } from './errorTypes.js';
import { EventHub } from './hub.js';
import { newId } from './ids.js';
import { registeredInstruments, type RunInstrument, type RunSession, type RunStart } from './instruments.js';
import { MemberIndex } from './members.js';
import { OutcomeTracker, type RunOutcome } from './outcome.js';
import type { RunResult } from './result.js';
import { RunStream, type StreamSink } from './runStream.js';
import { RUNNER_FACTS, type RunnerFacts } from './runTree.js';
import { RunStore, type SavedStore } from './store.js';

export type RunInput = string | { message: string };

export interface RunOptions {
  signal?: AbortSignal;
  /**
   * The conversation this run belongs to (gen_ai.conversation.id on its spans): a non-empty string
   * of at most 256 characters without control characters, else a ConfigError at the call.
   */
  sessionId?: string;
}

export interface ResumeOptions extends RunOptions {
  /** Where resumed checkpoint ids are kept (default: one in-memory store per process; docs/checkpoints.md). */
  checkpointStore?: CheckpointStore;
}


export interface MountedMember {
  mountId: string;
  runner: Runner;
  /** What the member does, as its composition describes it (an llmSwarm roster entry's description). */
  description?: string;
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

  /** What the run tree says of it beyond kind, id and name (runTree.ts): none by default; runners that call a model say more. */
  [RUNNER_FACTS](): RunnerFacts {
    return {};
  }

  /** Instruments this runner brings to every run it takes part in (e.g. an agent's skill-path recorder). */
  ownInstruments(): readonly RunInstrument[] {
    return [];
  }

  run(input: RunInput, options: RunOptions = {}): Promise<RunResult> {
    const message = messageOf(input, 'run');
    if (message instanceof TypeError) return Promise.reject(message);
    const checked = checkedSignal(`${this.kind} "${this.id}": run()`, options);
    if (checked.problem) return Promise.reject(checked.problem);
    return this.execute(newId('run'), options, { start: startWith(message) });
  }

  /**
   * Runs as run() does, yielding the run's parts as they happen (text deltas, tool calls and results,
   * hand-offs, then `end`); `result` holds what run() would return. See runStream.ts for
   * cancellation and back-pressure.
   *
   *   const s = agent.stream('Where is invoice 42?');
   *   for await (const part of s) if (part.type === 'text') process.stdout.write(part.delta);
   *   const answer = await s.result;
   */
  stream(input: RunInput, options: RunOptions = {}): RunStream {
    const message = messageOf(input, 'stream');
    const checked = checkedSignal(`${this.kind} "${this.id}": stream()`, options);
    return new RunStream(checked.signal, (signal, stream) => {
      if (checked.problem) return Promise.reject(checked.problem);
      if (message instanceof TypeError) return Promise.reject(message);
      return this.execute(newId('run'), { ...options, signal }, { start: startWith(message), stream });
    });
  }

  /**
   * Continues a paused run from its checkpoint (on this or a new instance, in any process), at most
   * once per checkpoint: a checkpoint already resumed (as `options.checkpointStore` says; by default
   * this process's store) is refused with CheckpointError 'already_resumed'.
   */
  async resume(checkpoint: unknown, answer: unknown, options: ResumeOptions = {}): Promise<RunResult> {
    runSignal(`${this.kind} "${this.id}": resume()`, options);
    const saved = this.resumable(checkpoint);
    await claimOnce(saved, options.checkpointStore ?? processCheckpointStore);
    return this.execute(saved.runId, options, resumeWith(saved, answer));
  }

  /** resume(), streamed as stream() is. */
  resumeStream(checkpoint: unknown, answer: unknown, options: ResumeOptions = {}): RunStream {
    const checked = checkedSignal(`${this.kind} "${this.id}": resumeStream()`, options);
    // async: a checkpoint resume() refuses fails the stream (and its result) the same way.
    return new RunStream(checked.signal, async (signal, stream) => {
      if (checked.problem) throw checked.problem;
      const saved = this.resumable(checkpoint);
      await claimOnce(saved, options.checkpointStore ?? processCheckpointStore);
      return this.execute(saved.runId, { ...options, signal }, { ...resumeWith(saved, answer), stream });
    });
  }

  /** The checkpoint, read and checked: this runner's, and one it can resume (CheckpointError if not). */
  protected resumable(checkpoint: unknown): Checkpoint {
    return readCheckpoint(checkpoint, this);
  }

  private async execute(runId: string, options: RunOptions, how: Execution): Promise<RunResult> {
    const { resumed, start: invoke } = how;
    const index = (this.index ??= new MemberIndex(this));
    const executor = new FlowChartExecutor(this.chart(), { readTracking: 'off', writeTracking: 'off' });
    const hub = new EventHub(runId, index, { sessionId: options.sessionId, stream: how.stream });
    const run: RunContext = { runId, sessionId: options.sessionId, store: new RunStore(resumed?.store), stream: how.stream, events: hub };
    executor.attachEmitRecorder(hub.recorder);
    const outcome = new OutcomeTracker(hub);
    const start: RunStart = { runId, sessionId: options.sessionId, tree: index.tree, events: hub, executor, resumed: resumed && { carry: resumed.carry, pausedAt: resumed.pausedAt } };
    const sessions = this.startSessions(start, index);

    const env = runEnv(run, options.signal);
    let call = () => invoke(executor, env);
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
      const checkpoint = makeCheckpoint(this, runId, executor.getCheckpoint() ?? (result as any).checkpoint, carry, run.store.save());
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

/** How execute() starts the executor: a fresh run or a resume, plain or streamed. */
interface Execution {
  /** Starts the executor with the run's env (context.ts: the run's context and the signal). */
  start: (executor: FlowChartExecutor, env: { signal?: AbortSignal }) => Promise<unknown>;
  resumed?: RunStart['resumed'] & { store: SavedStore };
  stream?: StreamSink;
}

function messageOf(input: RunInput, method: string): string | TypeError {
  const message = typeof input === 'string' ? input : input?.message;
  return typeof message === 'string' ? message : new TypeError(`${method}() takes a string or { message: string }`);
}

function startWith(message: string): Execution['start'] {
  return (executor, env) => executor.run({ input: { message }, env });
}

function resumeWith(saved: Checkpoint, answer: unknown): Execution {
  return {
    resumed: { carry: saved.carry, pausedAt: saved.pausedAt, store: saved.store },
    start: (executor, env) => executor.resume(saved.flow, answer, { env }),
  };
}

/** Claims the checkpoint's id in `store`: a second resume of one checkpoint is refused, whatever the store says went wrong. */
async function claimOnce(checkpoint: Checkpoint, store: CheckpointStore): Promise<void> {
  let claimed: boolean;
  try {
    claimed = (await store.claim(checkpoint.id, { runId: checkpoint.runId, runner: checkpoint.runner })) === true;
  } catch (error) {
    throw new CheckpointError(`checkpoint ${checkpoint.id}: the checkpoint store failed to claim it (${describeError(error)}); not resumed`, 'store_failed', { cause: error });
  }
  if (!claimed) {
    throw new CheckpointError(
      `checkpoint ${checkpoint.id} of run ${checkpoint.runId} was already resumed; a checkpoint resumes at most once`,
      'already_resumed',
    );
  }
}

/** The run options checked at the call (ConfigError for options, a signal or a sessionId that cannot work); returns the signal. */
function runSignal(owner: string, options: unknown): AbortSignal | undefined {
  if (typeof options !== 'object' || options === null) throw new ConfigError(`${owner}: the options must be an object ({ signal?, sessionId? })`, { field: 'options' });
  optionalId(owner, 'sessionId', (options as RunOptions).sessionId);
  return optionalSignal(owner, 'signal', (options as RunOptions).signal);
}

/** runSignal() that keeps the problem instead of throwing it: run() rejects with it, a stream fails with it. */
function checkedSignal(owner: string, options: unknown): { signal?: AbortSignal; problem?: unknown } {
  try {
    return { signal: runSignal(owner, options) };
  } catch (problem) {
    return { problem };
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
