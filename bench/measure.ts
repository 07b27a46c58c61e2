/**
 * The two measurements the in-process benchmarks share: the CPU time per call over a block of calls
 * run one after another (yielding to the event loop now and then, so timers and batch exports run
 * between calls as they would in an app), by the process's clock or also by the calling thread's,
 * and the median the rounds are read by.
 */
import { threadCpuNs } from './clock.js';

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** µs per call by two clocks: the process's CPU time, and the calling thread's (bench/clock.ts; 0 where it cannot be read). */
export interface PerCall {
  cpu: number;
  thread: number;
}

/** Calls `call` `calls` times in a row, yielding to the event loop every `yieldEvery` calls. */
async function runCalls(call: () => Promise<unknown>, calls: number, yieldEvery = 50): Promise<void> {
  for (let i = 0; i < calls; i++) {
    await call();
    if (i % yieldEvery === 0) await new Promise((r) => setImmediate(r));
  }
}

/** Both clocks started now: what they read since, as µs per call over `calls` calls. */
function startClocks(): (calls: number) => PerCall {
  const started = process.cpuUsage();
  const threadStarted = threadCpuNs();
  return (calls) => {
    const used = process.cpuUsage(started);
    return { cpu: (used.user + used.system) / calls, thread: (threadCpuNs() - threadStarted) / 1000 / calls };
  };
}

/** µs per call over `calls` calls of `call` in a row, yielding every `yieldEvery` calls, by both clocks. */
async function timePerCall(call: () => Promise<unknown>, calls: number, yieldEvery = 50): Promise<PerCall> {
  const perCall = startClocks();
  await runCalls(call, calls, yieldEvery);
  return perCall(calls);
}

/** Process CPU µs per call over `calls` calls of `call` in a row, yielding every `yieldEvery` calls. */
export async function cpuPerCall(call: () => Promise<unknown>, calls: number, yieldEvery = 50): Promise<number> {
  return (await timePerCall(call, calls, yieldEvery)).cpu;
}

/**
 * Calls `call` untimed for at least `minCalls` calls and `seconds` seconds, yielding as a timed block
 * does. V8 keeps optimising a traced turn's functions for thousands of turns (many run once a turn):
 * after 400 turns the full-detail turn read 13-32% more than after 4,000, in four processes of four
 * (docs/benchmarks.md, round 5's thirteenth session), while the floors' tight loops are warm within
 * a second. A warm-up measured in seconds gives every mode the same chance, whatever one call costs.
 */
export async function warmUp(call: () => Promise<unknown>, seconds: number, minCalls = 0): Promise<void> {
  const until = performance.now() + seconds * 1000;
  for (let calls = 0; calls < minCalls || performance.now() < until; calls += 100) await runCalls(call, 100);
}

/** What `node --expose-gc` gives: a young-generation collection on demand. */
const collect = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;

/**
 * Process CPU µs per call over a block of `calls` calls that pays for its own garbage and no one
 * else's. Under --expose-gc, what the block before left (spans in the batch processor: `flush`,
 * garbage) is exported and collected first, untimed, and the block's own garbage collected at its
 * end, timed with it. Without it the block timed after a traced one paid for that one's garbage
 * (measured: the rounds in one order and in the other parted by up to 50%); without the timed
 * collection at the end, a short block would seldom fill the young generation and its garbage
 * would go unpaid. Without --expose-gc it is cpuPerCall after the flush.
 */
export async function cleanBlock(call: () => Promise<unknown>, calls: number, flush: () => Promise<void>, around?: () => () => void): Promise<number> {
  return (await cleanBlockClocks(call, calls, flush, around)).cpu;
}

/** cleanBlock by both clocks: the process's CPU time and the calling thread's (the same block, read twice). */
export async function cleanBlockClocks(call: () => Promise<unknown>, calls: number, flush: () => Promise<void>, around?: () => () => void): Promise<PerCall> {
  await flush();
  collect?.({ type: 'minor' });
  const undo = around?.();
  const perCall = await timePerCall(call, calls);
  undo?.();
  if (!collect) return perCall;
  const collection = startClocks();
  collect({ type: 'minor' });
  const collected = collection(calls);
  return { cpu: perCall.cpu + collected.cpu, thread: perCall.thread + collected.thread };
}
