/**
 * The run a stage body belongs to. Stage closures are built once per runner, but the run's hub (its
 * store, its stream) is per run: it travels in the executor's
 * env, which footprintjs hands every stage of the run and of its subflows (`scope.$getEnv()`), under
 * a symbol key, so the env's own keys (and footprintjs's note that a stage read the env, taken only
 * when it has string keys) stay as they were. Carrying it there instead of in an AsyncLocalStorage
 * keeps a run to the one async context a traced run needs anyway (OTel's): every AsyncLocalStorage
 * that is enabled costs each promise the process creates, traced or not.
 */
import type { RunHub } from './hub.js';

const RUN_HUB = Symbol('footprint-otel.runHub');

/** The part of a footprintjs scope this needs (every TypedScope has it). */
export interface EnvScope {
  $getEnv(): { readonly signal?: AbortSignal };
}

/** The executor env of one run: its hub, and the caller's AbortSignal when there is one. */
export function runEnv(hub: RunHub, signal: AbortSignal | undefined): { signal?: AbortSignal } {
  const env: { signal?: AbortSignal; [RUN_HUB]: RunHub } = { [RUN_HUB]: hub };
  if (signal) env.signal = signal;
  return env;
}

/** The hub of the run `scope` belongs to (undefined outside a runner run: a chart run on a bare executor). */
export function currentHub(scope: EnvScope): RunHub | undefined {
  return (scope.$getEnv() as { [RUN_HUB]?: RunHub })[RUN_HUB];
}
