/**
 * The base of every runner (Agent, LLMCall, the compositions, the router step). A runner owns a
 * footprintjs chart, built once; run() executes it in an executor with the run's event hub and the
 * registered instruments attached (a new one, or the one of the runner's last run when nothing was
 * attached to that: no instrument took part and no chart of the tree may $emit, chart.ts); mounting
 * a runner in a composition reuses the same chart as a subflow, so a composed run is one executor,
 * one run, one trace.
 *
 * stream() runs the same way with the hub handing the run's parts to a RunStream (runStream.ts),
 * and the model calls streaming; it is defined here once, so every runner streams.
 *
 * Chart contract shared by all runners: input is the stage input (context.ts stageInput) as ChartInput (runInput.ts: the
 * message, and the conversation to open with); the final stage returns the answer, which run() and a
 * mount's outputMapper take (an agent's Final writes nothing to the flow state, where a write costs
 * footprintjs a commit; the compositions and the router also keep it under scope key `output`).
 * run() resolves to a RunResult (result.ts).
 *
 * A run with a `conversationId` loads the thread from its ConversationStore before the chart starts
 * and appends the run's new messages when it ends, both inside the instruments' `around` (a store
 * that makes spans nests them under the run span). A paused run appends nothing; its resume does,
 * when it ends. A cancelled run appends nothing: its turn is not whole.
 */
import { FlowChartExecutor, type FlowChart } from 'footprintjs';
import {
  ListenerSet,
  markOwnText,
  ownTextOf,
  stageIds,
  type EventPattern,
  type EventType,
  type InputProducer,
  type Listener,
  type RunnerKind,
  type Unsubscribe,
} from '../../events/index.js';
import { isPaused as isPausedCheckpoint, makeCheckpoint, readCheckpoint, type Checkpoint, type Paused } from './checkpoint.js';
import { processCheckpointStore, type CheckpointStore } from './checkpointStore.js';
import { runEnv, type RunContext } from './context.js';
import { ConversationStoreError, processConversationStore, type ConversationStore } from './conversationStore.js';
import { CheckpointError, ConfigError, describeError, errorType, failureOrigin, RunFailedError } from './errors.js';
import { optionNames, refuseUnknownOptions } from './knownOptions.js';
import { optionalId, optionalSignal } from './settings.js';
import { FIXED_ERROR_TYPES } from './errorTypes.js';
import { executedChart } from './executedChart.js';
import { fingerprintKey } from './fingerprint.js';
import { EventHub } from './hub.js';
import { newId } from './ids.js';
import { registeredInstruments, type RestoredEntry, type RunInstrument, type RunSession, type RunStart } from './instruments.js';
import { appendWithOrigins, keepOrigin, originAt, restoredStore, startedIn, type MessageOrigin } from './lineage.js';
import { MemberIndex } from './members.js';
import type { LLMMessage } from './messages.js';
import { OutcomeTracker, stopReasonOf, type RunOutcome } from './outcome.js';
import type { RunResult } from './result.js';
import { ResultTracker } from './resultTracker.js';
import { inputMessages, lastUserText, RUN_ANSWER_ORIGIN, RUN_INPUT_ORIGIN, RUN_THREAD, type ChartInput } from './runInput.js';
import { RunStream, type StreamSink } from './runStream.js';
import { RUNNER_FACTS, type RunnerFacts } from './runTree.js';
import { isRuntimeChart } from './chart.js';
import { stageScopeFactory } from './stageScope.js';
import { RunStore, type SavedStore } from './store.js';
import { appendRun, conversationOrigins, loadThread, producersOf } from './threads.js';

/** A string or `{ message }` (one user message), or a conversation: messages, oldest first. */
export type RunInput = string | readonly LLMMessage[] | { message: string };

export interface RunOptions {
  signal?: AbortSignal;
  /**
   * The conversation this run continues (gen_ai.conversation.id on its spans): its thread is loaded
   * from `conversationStore` before the run and the run's new messages appended when it ends. A
   * non-empty string of at most 256 characters without control characters, else a ConfigError.
   */
  conversationId?: string;
  /** Where conversations are kept (default: one in-memory store per process, like checkpointStore). */
  conversationStore?: ConversationStore;
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

/**
 * Thrown when run() is cancelled through its AbortSignal: a cancelled run rejects (the caller asked
 * it to stop, and a half-done turn is no answer). `result` says what it did before it stopped:
 * stopReason 'cancelled', text '', the messages and usage so far. Nothing is appended to a conversation.
 */
export class RunCancelledError extends Error {
  override readonly name = 'RunCancelledError';
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
  constructor(
    readonly runId: string,
    cause: unknown,
    /** What the run did before it was cancelled (absent when it was cancelled before it started). */
    readonly result?: RunResult,
  ) {
    super(`run ${runId} was cancelled`, { cause });
  }
}

/** `Output`: the type of `result.output` (an Agent's or LLMCall's `output` schema types it; unknown elsewhere). */
export abstract class Runner<Output = unknown> {
  abstract readonly kind: RunnerKind;
  abstract readonly id: string;
  abstract readonly name: string;
  /** Listeners of this runner; they also hear every member mounted below it. */
  readonly listeners = new ListenerSet();
  private builtChart?: FlowChart;
  private index?: MemberIndex;
  private treeInstruments?: RunInstrument[];
  /** Whether a chart of this runner's tree is not the runtime's own (chart.ts runtimeChart): its stages may emit through footprintjs's channel and report nothing. */
  private foreignCharts?: boolean;
  /** An executor whose last run attached nothing to it, for this runner's next fresh run (see execute). */
  private idleExecutor?: FlowChartExecutor;

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

  run(input: RunInput, options: RunOptions = {}): Promise<RunResult<Output>> {
    const messages = inputMessages(input, 'run');
    if (messages instanceof TypeError) return Promise.reject(messages);
    const checked = checkedSignal(`${this.kind} "${this.id}": run()`, options);
    if (checked.problem) return Promise.reject(checked.problem);
    return this.execute(newId('run'), options, { input: messages, startedIn: startedIn() });
  }

  /**
   * Runs as run() does, yielding the run's parts as they happen (text deltas, tool calls and results,
   * hand-offs, then `end`); `result` holds what run() would return. See runStream.ts for
   * cancellation and back-pressure.
   *
   *   const s = agent.stream('Where is invoice 42?');
   *   for await (const part of s) if (part.type === 'text') process.stdout.write(part.delta);
   *   const { text } = await s.result;
   */
  stream(input: RunInput, options: RunOptions = {}): RunStream<Output> {
    const messages = inputMessages(input, 'stream');
    const checked = checkedSignal(`${this.kind} "${this.id}": stream()`, options);
    const parent = startedIn();
    return new RunStream<Output>(checked.signal, (signal, stream) => {
      if (checked.problem) return Promise.reject(checked.problem);
      if (messages instanceof TypeError) return Promise.reject(messages);
      return this.execute(newId('run'), { ...options, signal }, { input: messages, stream, startedIn: parent });
    });
  }

  /**
   * Continues a paused run from its checkpoint (on this or a new instance, in any process), at most
   * once per checkpoint: a checkpoint already resumed (as `options.checkpointStore` says; by default
   * this process's store) is refused with CheckpointError 'already_resumed'.
   */
  async resume(checkpoint: unknown, answer: unknown, options: ResumeOptions = {}): Promise<RunResult<Output>> {
    const signal = runSignal(`${this.kind} "${this.id}": resume()`, options, RESUME_OPTIONS);
    const saved = this.resumable(checkpoint);
    // A resume cancelled before it claims leaves the checkpoint to the next one (execute() rejects it cancelled, nothing run).
    if (signal?.aborted !== true) await claimOnce(saved, options.checkpointStore ?? processCheckpointStore);
    return this.execute(saved.runId, options, resumeWith(saved, answer));
  }

  /** resume(), streamed as stream() is. */
  resumeStream(checkpoint: unknown, answer: unknown, options: ResumeOptions = {}): RunStream<Output> {
    const checked = checkedSignal(`${this.kind} "${this.id}": resumeStream()`, options, RESUME_OPTIONS);
    // async: a checkpoint resume() refuses fails the stream (and its result) the same way.
    return new RunStream<Output>(checked.signal, async (signal, stream) => {
      if (checked.problem) throw checked.problem;
      const saved = this.resumable(checkpoint);
      if (!signal.aborted) await claimOnce(saved, options.checkpointStore ?? processCheckpointStore);
      return this.execute(saved.runId, { ...options, signal }, { ...resumeWith(saved, answer), stream });
    });
  }

  /** The checkpoint, read and checked: this runner's, and one it can resume (CheckpointError if not). */
  protected resumable(checkpoint: unknown): Checkpoint {
    return readCheckpoint(checkpoint, this);
  }

  /**
   * The messages this runner's own agent turn added after it opened (an Agent, an LLMCall); a runner
   * without turns of its own (a composition) answers with one assistant message, its text.
   */
  protected turnMessages(_store: RunStore, _turnId: string): readonly LLMMessage[] | undefined {
    return undefined;
  }

  /** Where each of turnMessages() came from (run/lineage.ts), one per message. */
  protected turnOrigins(_store: RunStore, _turnId: string, _runId: string): readonly MessageOrigin[] | undefined {
    return undefined;
  }

  /** The validated structured output of this runner's own agent turn (AgentOptions.output), if any. */
  protected turnOutput(_store: RunStore, _turnId: string): unknown {
    return undefined;
  }

  private async execute(runId: string, options: RunOptions, how: Execution): Promise<RunResult<Output>> {
    const { resumed } = how;
    const index = (this.index ??= new MemberIndex(this));
    // A resumed run's messages are restored from its checkpoint: their origins say so (lineage.ts).
    const store = new RunStore(resumed && restoredStore(resumed.store));
    // A resumed chart reads the input its run started with (footprintjs keeps no input in a checkpoint): where its answer goes, too.
    const startedWith = store.record<ChartInput>(RUN_ARGS);
    const chart = executedChart(this.chart());
    // A fresh run may take the executor of an earlier run that attached nothing to it (released below):
    // footprintjs's constructor builds a traverser that run() replaces, and run() resets all else it holds of a run.
    const idle = resumed ? undefined : this.idleExecutor;
    if (idle) this.idleExecutor = undefined;
    const executor = idle ?? new FlowChartExecutor(chart, { scopeFactory: stageScopeFactory(chart), readTracking: 'off', writeTracking: 'off', ...(startedWith ? { readOnlyContext: startedWith } : {}) });
    // A resumed run continues the conversation its first segment loaded (kept in the run's store).
    const saved = store.record<RunConversation>(RUN_CONVERSATION);
    const conversationId = saved ? saved.conversationId : options.conversationId;
    const hub = new EventHub(runId, index, { conversationId, stream: how.stream });
    const run: RunContext = { runId, conversationId, store, stream: how.stream, events: hub, fingerprintKey: fingerprintKey() };
    // Only a chart of the runner's tree that is not the runtime's own may $emit: only then is the hub's recorder needed, and
    // only the runtime's own charts report their stages to the hub (chart.ts runtimeChart).
    const foreignCharts = (this.foreignCharts ??= hasForeignCharts(this));
    if (foreignCharts) executor.attachEmitRecorder(hub.recorder);
    hub.reportsStages = !foreignCharts;
    const outcome = new OutcomeTracker(hub);
    const tally = new ResultTracker(hub);
    if (saved?.topTurnId) tally.topTurnId = saved.topTurnId;
    // What a stored conversation's entries carry, filled when the thread is loaded (a resumed run: as its first segment loaded it).
    const restored: RestoredEntry[] = saved?.restored ? [...saved.restored] : [];
    const start: RunStart = {
      runId,
      conversationId,
      tree: index.tree,
      events: hub,
      executor,
      resumed: resumed && { carry: resumed.carry, pausedAt: resumed.pausedAt },
      ...(conversationId === undefined ? {} : { restored }),
    };
    const sessions = this.startSessions(start, index);
    const conversations = options.conversationStore ?? processConversationStore;
    const env = runEnv(run, options.signal);
    const top = { kind: this.kind, id: this.id };
    let conversation = saved;
    /** The result as the run stands, for `text` and `stopReason` (settles the tally: call once). */
    const resultOf = (text: string, stopReason: RunResult['stopReason'], paused?: Paused): RunResult => {
      const given = conversation ?? { after: 0, input: [] };
      const produced = tally.topTurnId === undefined ? undefined : this.turnMessages(store, tally.topTurnId);
      const own: readonly LLMMessage[] = produced ?? (text === '' ? [] : [{ role: 'assistant', content: text }]);
      const output = tally.topTurnId === undefined || stopReason !== 'answered' ? undefined : this.turnOutput(store, tally.topTurnId);
      return {
        runId,
        text,
        ...(output === undefined ? {} : { output }),
        messages: [...given.input, ...own],
        stopReason,
        ...tally.settle(text, top, answerProducer(store, 'member')),
        ...(conversationId === undefined ? {} : { conversationId }),
        ...(paused ? { paused } : {}),
      };
    };

    // Each store call and the chart run inside the instruments' context (a store's spans nest under the run span).
    const inRun = <T>(work: () => Promise<T>): Promise<T> => {
      let call = work;
      for (const session of sessions) {
        if (session.around) {
          const inner = call;
          call = () => session.around!(inner);
        }
      }
      return call();
    };
    // Load the thread, run the chart, append what the run added.
    const call = async (): Promise<{ outcome: RunOutcome; result: RunResult }> => {
      let value: unknown;
      if (how.input) {
        const loaded = conversationId === undefined ? { messages: [], runs: [] } : await loadThread(conversations, conversationId, options.signal);
        restored.push(...loaded.runs.map(({ runId: from, carry }) => ({ runId: from, carry })));
        conversation = { conversationId, after: loaded.messages.length, input: how.input, ...(restored.length > 0 ? { restored } : {}) };
        store.keep(RUN_CONVERSATION, conversation);
        const inputOrigin: MessageOrigin = { origin: 'run_input', producer: how.startedIn ?? { kind: 'run', id: runId } };
        keepOrigin(store, RUN_INPUT_ORIGIN, inputOrigin);
        const args: ChartInput = { message: lastUserText(how.input), messageOrigin: RUN_INPUT_ORIGIN, answerTo: RUN_ANSWER_ORIGIN };
        if (loaded.messages.length > 0 || how.input.length > 1 || how.input[0]!.role !== 'user' || typeof how.input[0]!.content !== 'string') {
          const origins = conversationOrigins(loaded);
          for (let i = 0; i < how.input.length; i++) origins.push(inputOrigin);
          // Nothing loaded: the input is the whole thread (the store's list is a copy of its own, store.ts).
          appendWithOrigins(store, RUN_THREAD, loaded.messages.length === 0 ? how.input : [...loaded.messages, ...how.input], origins);
          args.thread = RUN_THREAD;
        }
        store.keep(RUN_ARGS, args);
        value = await executor.run({ input: args, env });
      } else {
        value = await executor.resume(resumed!.flow, how.answer, { env });
      }
      if (isPausedCheckpoint(value)) {
        if (conversation) conversation.topTurnId = tally.topTurnId;
        const carry: Record<string, unknown> = {};
        for (const session of sessions) Object.assign(carry, safely(() => session.paused?.()) ?? {});
        const checkpoint = makeCheckpoint(this, runId, executor.getCheckpoint() ?? (value as any).checkpoint, carry, store.save());
        const paused: Paused = { paused: true, checkpoint, question: checkpoint.question };
        return { outcome: outcome.paused(), result: resultOf('', 'paused', paused) };
      }
      const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
      const decided = outcome.answered(text, answerProducer(store, 'model_call'));
      const result = resultOf(text, stopReasonOf(decided)!);
      if (conversationId !== undefined) {
        const merged: Record<string, unknown> = {};
        for (const session of sessions) Object.assign(merged, safely(() => session.appending?.()) ?? {});
        // Plain JSON or nothing: what an instrument carries must never fail the append of the run's messages.
        const carry = (safely(() => JSON.parse(JSON.stringify(merged)) as Record<string, unknown>)) ?? {};
        const producers = this.appendedProducers(store, tally.topTurnId, runId, conversation!.input.length, result.messages.length, decided);
        await inRun(() => appendRun(conversations, conversationId, { runId, after: conversation!.after, carry, producers }, result, options.signal));
      }
      return { outcome: decided, result };
    };

    // Nothing was attached to the executor when no instrument took part and the hub needed no recorder:
    // the runner's next fresh run may take it (once its run() has settled, which `call` awaits).
    const reusable = !resumed && sessions.length === 0 && !foreignCharts;
    try {
      const { outcome: decided, result } = await inRun(call);
      finish(sessions, decided);
      // `output` is what the runner's own turn validated against its `output` schema (turnOutput)
      return result as RunResult<Output>;
    } catch (error) {
      const origin = failureOrigin(error) ?? { member: top, stage: 'unknown' };
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
      if (cancelled) throw new RunCancelledError(runId, error, resultOf('', 'cancelled'));
      if (error instanceof ConversationStoreError) throw error;
      const { usage, cost } = tally.settle('', top);
      throw new RunFailedError(runId, origin.member, origin.stage, error, { usage, cost });
    } finally {
      if (reusable) this.idleExecutor = executor;
    }
  }

  /**
   * What produced each message the run appends (its input: the run; its own turn's messages: their
   * model and tool calls; a composition's answer: the call that answered, RunOutcome.answeredBy).
   */
  private appendedProducers(store: RunStore, topTurnId: string | undefined, runId: string, inputs: number, total: number, decided: RunOutcome): (string | null)[] {
    const own = topTurnId === undefined ? undefined : this.turnOrigins(store, topTurnId, runId);
    const produced = own ? producersOf(own) : 'answeredBy' in decided && decided.answeredBy !== undefined ? [decided.answeredBy] : [];
    const producers: (string | null)[] = Array.from({ length: inputs }, () => null);
    for (let i = inputs; i < total; i++) producers.push(produced[i - inputs] ?? null);
    return producers;
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

/** How execute() starts the executor: a fresh run (its input messages) or a resume, plain or streamed. */
interface Execution {
  input?: LLMMessage[];
  /** The tool call this run was started in (a runner run inside a tool): its input's producer. */
  startedIn?: InputProducer;
  resumed?: RunStart['resumed'] & { store: SavedStore; flow: Checkpoint['flow'] };
  answer?: unknown;
  stream?: StreamSink;
}

/**
 * The id of what produced the run's answer, as the top-level runner recorded it, when it is of `kind`:
 * the model call whose output became the answer ('model_call'), or the member that made it itself
 * ('member': a Parallel's merge, or an agent's own words). Undefined when the producer is of the other kind.
 */
function answerProducer(store: RunStore, kind: 'model_call' | 'member'): string | undefined {
  const producer = originAt(store, RUN_ANSWER_ORIGIN)?.producer;
  return producer?.kind === kind ? producer.id : undefined;
}

/** The run-store record of the chart input a run started with (a pause saves it with the checkpoint). */
const RUN_ARGS = 'run:args';

/** The run-store record of the conversation a run continues (a pause saves it with the checkpoint). */
const RUN_CONVERSATION = 'run:conversation';

interface RunConversation {
  conversationId?: string;
  /** The thread's length when the run loaded it: where its messages are appended. */
  after: number;
  /** The run's input messages (the first of its new messages). */
  input: LLMMessage[];
  /** The top-level agent turn, for a resumed run (its turn_start came before the pause). */
  topTurnId?: string;
  /** The loaded conversation's entries (RunStart.restored), for a resumed run's instruments. */
  restored?: RestoredEntry[];
}

function resumeWith(saved: Checkpoint, answer: unknown): Execution {
  return { resumed: { carry: saved.carry, pausedAt: saved.pausedAt, store: saved.store, flow: saved.flow }, answer };
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

/** The run options checked at the call (ConfigError for options, a signal, a conversation id or store that cannot work); returns the signal. */
function runSignal(owner: string, options: unknown, known: ReadonlySet<string> = RUN_OPTIONS): AbortSignal | undefined {
  if (typeof options !== 'object' || options === null) throw new ConfigError(`${owner}: the options must be an object ({ signal?, conversationId?, conversationStore? })`, { field: 'options' });
  refuseUnknownOptions(owner, options, known);
  optionalId(owner, 'conversationId', (options as RunOptions).conversationId);
  const store = (options as RunOptions).conversationStore as Partial<ConversationStore> | undefined;
  if (store !== undefined && (typeof store?.load !== 'function' || typeof store.append !== 'function')) {
    throw new ConfigError(`${owner}: conversationStore must have load() and append() (a ConversationStore)`, { field: 'conversationStore' });
  }
  return optionalSignal(owner, 'signal', (options as RunOptions).signal);
}

/** Every option run() and stream() take, and resume() besides (a name not here is a ConfigError: knownOptions.ts). */
const RUN_OPTIONS = optionNames<RunOptions>()(['signal', 'conversationId', 'conversationStore']);
const RESUME_OPTIONS = optionNames<ResumeOptions>()(['signal', 'conversationId', 'conversationStore', 'checkpointStore']);

/** runSignal() that keeps the problem instead of throwing it: run() rejects with it, a stream fails with it. */
function checkedSignal(owner: string, options: unknown, known?: ReadonlySet<string>): { signal?: AbortSignal; problem?: unknown } {
  try {
    return { signal: runSignal(owner, options, known) };
  } catch (problem) {
    return { problem };
  }
}

/**
 * Whether a chart of the runner's tree is not marked runtimeChart (chart.ts): a Runner a user wrote.
 * The whole tree is walked, not the member index, which stops at MAX_MOUNT_DEPTH (members.ts): a user's
 * chart mounted deeper must still get its recorders, or its stages report nothing and its emits go
 * unheard.
 */
function hasForeignCharts(root: Runner<unknown>): boolean {
  const seen = new Set<Runner<unknown>>();
  const pending: Runner<unknown>[] = [root];
  for (let runner = pending.pop(); runner !== undefined; runner = pending.pop()) {
    if (seen.has(runner)) continue;
    seen.add(runner);
    if (!isRuntimeChart(runner.chart())) return true;
    for (const member of runner.members()) pending.push(member.runner);
  }
  return false;
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
