/**
 * Issue #40's floor targets read side by side: the traced reference turn (full and semantic detail)
 * against its engine+SDK floor (bench/targets.ts turnFloorUs: the spans it exports x the SDK's span
 * floor + its stages x the engine's stage floor, bench/floors.ts), every part of the ratio timed in
 * the same seconds. The turns run on this thread; the floors in a worker thread (bench/floorWorker.ts:
 * an isolate of its own, so the turns' code and garbage do not reach them). Clean blocks (measure.ts)
 * of the four alternate, the order flipped every round, each timed by the CPU time of the thread it
 * runs on; each round gives one ratio per detail, and the median of the rounds is the reading.
 *
 * Why not the medians of bench/child.ts's modes, a process each: this machine's speed moves within
 * seconds (the same mode's process read 17 and 30 µs per engine stage a minute apart, docs/benchmarks.md,
 * round 5's thirteenth session), and a process per mode puts the floor and the turn in different seconds.
 *
 *   node --expose-gc --import tsx [--import ./bench/fromDist.mjs] bench/floor.ts [--json] [--quick]
 */
import { Worker } from 'node:worker_threads';
import { registerInstrument, tracingInstrument } from '../src/index.js';
import type { FloorMode, FloorRequest } from './floorWorker.js';
import { inProcessTracing } from './inProcessTracing.js';
import { cleanBlockClocks, median, warmUp, type PerCall } from './measure.js';
import { MESSAGE, referenceAgent, stagesPerTurn } from './scenario.js';
import { turnFloorUs } from './targets.js';

const quick = process.argv.includes('--quick');
const WARMUP_SECONDS = quick ? 0.5 : 3;
const ROUNDS = quick ? 5 : 31;
/** Calls per block (a turn, a run of the linear chart, a batch of 100 spans): 25-60 ms of work each on this machine. */
const BLOCK = { turn: quick ? 50 : 200, engine: quick ? 100 : 400, sdk: quick ? 20 : 80 };
const DETAILS = ['full', 'semantic'] as const;
type Detail = (typeof DETAILS)[number];

const { manager, provider, exporter } = inProcessTracing();
const agent = referenceAgent();
const traced = (detail: Detail) => () => registerInstrument(tracingInstrument({ tracerProvider: provider, detail }));

/** `work` with the turn traced in `detail`; afterwards no context is held (the promise hooks off, as in the worker). */
async function whileTraced(detail: Detail, work: () => Promise<unknown>): Promise<void> {
  const undo = traced(detail)();
  try {
    await work();
  } finally {
    undo();
    manager.disable();
  }
}

/** The spans one turn of `detail` exports, counted at the exporter. */
async function spansPerTurn(detail: Detail): Promise<number> {
  await provider.forceFlush();
  const before = exporter.exported;
  await whileTraced(detail, () => agent.run(MESSAGE));
  await provider.forceFlush();
  return exporter.exported - before;
}

/** One clean block of the traced turn on this thread; afterwards no context is held (the promise hooks off, as in the worker). */
async function turnBlock(detail: Detail, turns: number): Promise<PerCall> {
  const perTurn = await cleanBlockClocks(() => agent.run(MESSAGE), turns, () => provider.forceFlush(), traced(detail));
  manager.disable();
  return perTurn;
}

const stages = await stagesPerTurn(agent);
const spans = { full: await spansPerTurn('full'), semantic: await spansPerTurn('semantic') };
const worker = new Worker(new URL('./floorWorker.mjs', import.meta.url), { workerData: { stages } });
/** One clean block of a floor in the worker, per stage or per span (after a warm-up of `warmUpSeconds`, if given). */
function floorBlock(mode: FloorMode, calls: number, warmUpSeconds?: number): Promise<PerCall> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage({ mode, calls, warmUpSeconds } satisfies FloorRequest);
  }).finally(() => worker.removeAllListeners('error')) as Promise<PerCall>;
}

type Part = Detail | FloorMode;
const PARTS: readonly Part[] = ['engine', 'sdk', 'full', 'semantic'];
/** Whether a part is a floor (timed in the worker) rather than a traced turn (timed here). */
const isFloor = (part: Part): part is FloorMode => part === 'engine' || part === 'sdk';
const block = (part: Part, calls: number) => (isFloor(part) ? floorBlock(part, calls) : turnBlock(part, calls));
const callsOf = (part: Part) => (isFloor(part) ? BLOCK[part] : BLOCK.turn);
/** A part's warm-up, untimed: the traced turn here, a floor in the worker. */
async function warmPart(part: Part): Promise<void> {
  if (isFloor(part)) return void (await floorBlock(part, callsOf(part), WARMUP_SECONDS));
  await whileTraced(part, () => warmUp(() => agent.run(MESSAGE), WARMUP_SECONDS));
}

// Every part warmed up for WARMUP_SECONDS first (measure.ts warmUp: the traced turn is not warm after a few hundred turns).
for (const part of PARTS) await warmPart(part);
const samples: Record<Part, PerCall[]> = { engine: [], sdk: [], full: [], semantic: [] };
const ratios: Record<Detail, { thread: number[]; cpu: number[] }> = { full: { thread: [], cpu: [] }, semantic: { thread: [], cpu: [] } };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? PARTS : [...PARTS].reverse();
  const got = {} as Record<Part, PerCall>;
  for (const part of order) samples[part].push((got[part] = await block(part, callsOf(part))));
  for (const detail of DETAILS) {
    for (const clock of ['thread', 'cpu'] as const) {
      ratios[detail][clock].push(got[detail][clock] / turnFloorUs(spans[detail], stages, got.sdk[clock], got.engine[clock]));
    }
  }
}
await worker.terminate();
await provider.shutdown();

/** What `--json` prints, for bench/run.ts. */
export interface FloorResult {
  stages: number;
  spans: Record<Detail, number>;
  /** The clock `rounds` is read by: each thread's CPU time where Linux's schedstat has it, else the process's. */
  clock: 'thread' | 'cpu';
  /** The median of each part's blocks: µs per turn, per engine stage, per SDK span; by the thread's clock and the process's. */
  us: Record<Part, PerCall>;
  /** Every round's ratio turn / floor by `clock`, by detail, in order (bench/run.ts pools several processes' rounds). */
  rounds: Record<Detail, number[]>;
  /** The same by the process's CPU time (which also counts the collector's helper threads): printed, not graded. */
  cpuRounds: Record<Detail, number[]>;
}
const medianOf = (xs: PerCall[]): PerCall => ({ thread: median(xs.map((x) => x.thread)), cpu: median(xs.map((x) => x.cpu)) });
const clock = PARTS.every((part) => samples[part].every((x) => x.thread > 0)) ? 'thread' : 'cpu';
const result: FloorResult = {
  stages,
  spans,
  clock,
  us: { engine: medianOf(samples.engine), sdk: medianOf(samples.sdk), full: medianOf(samples.full), semantic: medianOf(samples.semantic) },
  rounds: { full: ratios.full[clock], semantic: ratios.semantic[clock] },
  cpuRounds: { full: ratios.full.cpu, semantic: ratios.semantic.cpu },
};
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  const f = (x: number, digits = 1) => x.toFixed(digits);
  const by = (part: Part) => result.us[part][clock];
  console.log(
    [
      `floor benchmark: the traced turn on the main thread, the floors in a worker, ${ROUNDS} interleaved rounds, by ${clock === 'thread' ? "each thread's CPU time" : "the process's CPU time"}; ${stages} stages, spans full ${spans.full}, semantic ${spans.semantic}`,
      `  engine floor ${f(by('engine'))} µs per stage, SDK floor ${f(by('sdk'), 2)} µs per span, full ${f(by('full'), 0)} µs, semantic ${f(by('semantic'), 0)} µs per turn`,
      ...DETAILS.map((d) => `  ${d}: ${f(median(result.rounds[d]), 2)}x its floor (rounds ${f(Math.min(...result.rounds[d]), 2)}-${f(Math.max(...result.rounds[d]), 2)}); by the process CPU time ${f(median(result.cpuRounds[d]), 2)}x`),
    ].join('\n'),
  );
}
