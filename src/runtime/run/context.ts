/**
 * The run a stage body belongs to. Stage closures are built once per runner, but signals such as
 * "stop this turn" (from a loop guard) are per run; stages find their run's hub here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunHub } from './hub.js';

const current = new AsyncLocalStorage<RunHub>();

export function currentHub(): RunHub | undefined {
  return current.getStore();
}

export function withHub<T>(hub: RunHub, call: () => Promise<T>): Promise<T> {
  return current.run(hub, call);
}
