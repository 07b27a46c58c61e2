/**
 * The run a stage body belongs to: its context (the run's id and session, its store, the stream of
 * a streamed run, and its event hub). Stage closures are built once per runner, but the context is per
 * run: it travels in the executor's
 * env, which footprintjs hands every stage of the run and of its subflows (`scope.$getEnv()`), under
 * a symbol key, so the env's own keys (and footprintjs's note that a stage read the env, taken only
 * when it has string keys) stay as they were. Carrying it there instead of in an AsyncLocalStorage
 * keeps a run to the one async context a traced run needs anyway (OTel's): every AsyncLocalStorage
 * that is enabled costs each promise the process creates, traced or not. The caller's AbortSignal is
 * the env's own `signal`. Each stage's scope is given an env of its own (stageEnv, made by
 * stageScope.ts): the run's, with the stage's runtime id (its typed events' stamp), its input, and
 * when an instrument hears the run's stages, the stage execution its body reports (chart.ts stage()).
 */
import type { KeyObject } from 'node:crypto';
import { EMIT_TARGET, EMITTING_STAGE, stageIds } from '../../events/index.js';
import type { EventHub } from './hub.js';
import type { StageExecution } from './runEvents.js';
import type { StreamSink } from './runStream.js';
import type { RunStore } from './store.js';

/** One run's context (a resumed run's is new, with the store its checkpoint saved). */
export interface RunContext {
  readonly runId: string;
  readonly conversationId?: string;
  /** The run's append-only data (restored from the checkpoint on a resume). */
  readonly store: RunStore;
  /** Present when the run is streamed (runner.stream()): its parts' sink, and the model calls stream. */
  readonly stream?: StreamSink;
  /** Where the run's events go. */
  readonly events: EventHub;
  /** The fingerprint key the run started with (fingerprint.ts), or undefined: no fingerprints. */
  readonly fingerprintKey?: KeyObject;
}

/** The run's context is what its stages' typed events go to (its `events`, events/emit.ts). */
const RUN_CONTEXT: typeof EMIT_TARGET = EMIT_TARGET;
/** The stage's input, as footprintjs hands it to the stage's scope factory (stageScope.ts). */
const STAGE_INPUT = Symbol('footprint-otel.stageInput');
/** The stage execution its body reports the start and end of (chart.ts stage()), when the run's hub hears them. */
const STAGE_EXECUTION = Symbol('footprint-otel.stageExecution');

/** What footprintjs's StageContext tells the scope factory of the stage it makes a scope for. */
export interface StageContextIds {
  readonly stageId: string;
  readonly runtimeStageId: string;
  readonly runId: string;
}

/** The part of a footprintjs scope this needs (every TypedScope has it). */
export interface EnvScope {
  $getEnv(): { readonly signal?: AbortSignal };
  $getArgs<T = Record<string, unknown>>(): T;
}

/** The executor env of one run: its context, and the caller's AbortSignal when there is one. */
export interface RunEnv {
  signal?: AbortSignal;
  readonly [RUN_CONTEXT]: RunContext;
}

/** One stage's env: its run's, with the runtime stage id its events carry, the stage's input, and the execution it reports. */
interface StageEnv extends RunEnv {
  readonly [EMITTING_STAGE]: string;
  readonly [STAGE_INPUT]: unknown;
  readonly [STAGE_EXECUTION]?: StageExecution;
}

export function runEnv(run: RunContext, signal: AbortSignal | undefined): RunEnv {
  const env: RunEnv = { [RUN_CONTEXT]: run };
  if (signal) env.signal = signal;
  return env;
}

/**
 * The env of one stage of a run (`env` is the run's, runEnv()). The signal is set only when the
 * run has one: an env without string keys is one footprintjs notes no read of.
 */
export function stageEnv(env: RunEnv, context: StageContextIds, stageName: string, input: unknown): StageEnv {
  const run = env[RUN_CONTEXT];
  // Named only when something hears the run's stages (an instrument: hub.ts subscribeStages).
  const execution = run.events.hearsStages ? { stageName, stageId: context.stageId, runtimeStageId: context.runtimeStageId, pipelineId: context.runId } : undefined;
  const stage: StageEnv = { [RUN_CONTEXT]: run, [EMITTING_STAGE]: context.runtimeStageId, [STAGE_INPUT]: input, [STAGE_EXECUTION]: execution };
  if (env.signal) stage.signal = env.signal;
  return stage;
}

/** The hub a stage body reports its start and end to, and the execution it reports; undefined when nothing hears them. */
export function stageReport(env: object): { readonly hub: EventHub; readonly execution: StageExecution } | undefined {
  const execution = (env as Partial<StageEnv>)[STAGE_EXECUTION];
  return execution && { hub: (env as StageEnv)[RUN_CONTEXT].events, execution };
}

/**
 * A stage's scope as our stage code uses it (its env, its input, its emit channel), with the env
 * read once. footprintjs's scope proxy binds a new function on every `$getEnv` access, and a stage's
 * helpers each read the env again (the run's store, the signal, every typed event's hub and stage
 * id): a stage makes one of these at its top and hands it to its helpers in place of the scope.
 */
export class OnceEnvScope implements EnvScope {
  private readonly env: RunEnv | Partial<StageEnv>;

  constructor(private readonly scope: EnvScope & { $emit(name: string, payload?: unknown): void }) {
    this.env = scope.$getEnv() as RunEnv;
  }

  $getEnv(): { readonly signal?: AbortSignal } {
    return this.env;
  }

  $getArgs<T = Record<string, unknown>>(): T {
    return this.scope.$getArgs<T>();
  }

  $emit(name: string, payload?: unknown): void {
    this.scope.$emit(name, payload);
  }
}

/**
 * The key of the subflow the stage of `scope` runs in ('' the top-level chart, 'desk/billing' a
 * member's chart): the place an agent keeps its open turn under (agent/turn.ts). Undefined outside a
 * runner run.
 */
export function stageSubflowKey(scope: EnvScope): string | undefined {
  const stage = (scope.$getEnv() as Partial<StageEnv>)[EMITTING_STAGE];
  if (stage === undefined) return undefined;
  if (stage !== lastStage) {
    lastStage = stage;
    lastKey = stageIds.subflowKeyOf(stage);
  }
  return lastKey;
}

/** The last stage asked about and its subflow key: a stage's helpers ask for the same stage. */
let lastStage = '';
let lastKey = '';

/** The context of the run `scope` belongs to (undefined outside a runner run: a chart run on a bare executor). */
export function currentRun(scope: EnvScope): RunContext | undefined {
  return (scope.$getEnv() as { [RUN_CONTEXT]?: RunContext })[RUN_CONTEXT];
}

/**
 * The input of the chart `scope`'s stage runs in (a runner's ChartInput, a subflow's mapped input):
 * what footprintjs's `$getArgs()` gives, without the frozen copy footprintjs makes of it for every
 * stage (stageScope.ts). Stages only read it.
 */
export function stageInput<T>(scope: EnvScope): Partial<T> {
  const env = scope.$getEnv() as Partial<StageEnv>;
  return (STAGE_INPUT in env ? env[STAGE_INPUT] ?? {} : scope.$getArgs()) as Partial<T>;
}
