/**
 * The run a stage body belongs to: its context (the run's id and session, its store, the stream of
 * a streamed run, and its event hub). Stage closures are built once per runner, but the context is per
 * run: it travels in the executor's
 * env, which footprintjs hands every stage of the run and of its subflows (`scope.$getEnv()`), under
 * a symbol key, so the env's own keys (and footprintjs's note that a stage read the env, taken only
 * when it has string keys) stay as they were. Carrying it there instead of in an AsyncLocalStorage
 * keeps a run to the one async context a traced run needs anyway (OTel's): every AsyncLocalStorage
 * that is enabled costs each promise the process creates, traced or not. The caller's AbortSignal is
 * the env's own `signal`.
 */
import type { KeyObject } from 'node:crypto';
import type { EventHub } from './hub.js';
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

const RUN_CONTEXT = Symbol('footprint-otel.runContext');

/** The part of a footprintjs scope this needs (every TypedScope has it). */
export interface EnvScope {
  $getEnv(): { readonly signal?: AbortSignal };
}

/** The executor env of one run: its context, and the caller's AbortSignal when there is one. */
export function runEnv(run: RunContext, signal: AbortSignal | undefined): { signal?: AbortSignal } {
  const env: { signal?: AbortSignal; [RUN_CONTEXT]: RunContext } = { [RUN_CONTEXT]: run };
  if (signal) env.signal = signal;
  return env;
}

/** The context of the run `scope` belongs to (undefined outside a runner run: a chart run on a bare executor). */
export function currentRun(scope: EnvScope): RunContext | undefined {
  return (scope.$getEnv() as { [RUN_CONTEXT]?: RunContext })[RUN_CONTEXT];
}
