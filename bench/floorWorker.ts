/**
 * The floors of bench/floor.ts, timed in a worker thread: an isolate of its own (its own JIT state
 * and heap, as fresh as bench/child.ts's process of one mode) that runs nothing but the floors, so
 * neither the traced turns' code nor their garbage reaches them. The thread waits while the main
 * thread times its turns, and the main thread waits while this one times a floor: no block shares
 * the machine with another. It sets up tracing as the in-process benchmarks do (inProcessTracing.ts:
 * the context manager every traced app registers, as bench/child.ts's SDK floor's process does);
 * nothing here enters a context, so its promise hooks stay off, as in the engine floor's own process.
 *
 * Messages in: { mode: 'engine' | 'sdk', calls, warmUpSeconds? }: a warm-up first when asked
 * (measure.ts warmUp), then a clean block of `calls`. Out: the block's readings per unit
 * (measure.ts cleanBlockClocks: per stage, per span), by the process's clock and this thread's.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { engineFloorRun, sdkFloorBatch, SDK_FLOOR_BATCH } from './floors.js';
import { inProcessTracing } from './inProcessTracing.js';
import { cleanBlockClocks, warmUp, type PerCall } from './measure.js';

export type FloorMode = 'engine' | 'sdk';
export interface FloorRequest {
  mode: FloorMode;
  calls: number;
  warmUpSeconds?: number;
}

const { stages } = workerData as { stages: number };
const { provider } = inProcessTracing();
const floors: Record<FloorMode, { call: () => Promise<unknown>; units: number }> = {
  engine: { call: engineFloorRun(stages), units: stages },
  sdk: { call: sdkFloorBatch(provider.getTracer('bench-floor')), units: SDK_FLOOR_BATCH },
};

parentPort!.on('message', async ({ mode, calls, warmUpSeconds }: FloorRequest) => {
  const { call, units } = floors[mode];
  if (warmUpSeconds !== undefined) await warmUp(call, warmUpSeconds);
  const block = await cleanBlockClocks(call, calls, () => provider.forceFlush());
  const perUnit: PerCall = { cpu: block.cpu / units, thread: block.thread / units };
  parentPort!.postMessage(perUnit);
});
