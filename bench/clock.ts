/**
 * The clocks a benchmark mode is read by (bench/run.ts, bench/child.ts). Each child times its blocks
 * three ways:
 * - `thread`: the CPU time of the main thread, the one the turn runs on, from the kernel's
 *   per-thread schedstat (Linux). On a quiet machine it reads as the wall clock does; on a machine
 *   shared with other work it leaves out the time the thread waited for a core, which the wall clock
 *   charges to whichever mode was running then. The default wherever every child could read it.
 * - `wall`: the wall clock (the default before round 5's ninth session, docs/benchmarks.md).
 * - `cpu`: the whole process's CPU time, which also counts the garbage collector's helper threads.
 */
import { readFileSync } from 'node:fs';

export type Clock = 'thread' | 'wall' | 'cpu';

export const CLOCK_NAMES: Readonly<Record<Clock, string>> = { thread: "main thread's CPU time", wall: 'wall clock', cpu: 'process CPU time' };

/** One mode's time per unit by each clock (µs). `threadUsPerUnit` is 0 where the thread clock could not be read. */
export interface ClockReadings {
  usPerUnit: number;
  cpuUsPerUnit: number;
  threadUsPerUnit: number;
}

/**
 * Nanoseconds the calling thread has spent on a CPU (the first field of Linux's schedstat); 0 where
 * there is none. The kernel adds a running thread's time to that field at a scheduler tick (every
 * 4 ms on these machines) or when the thread leaves its CPU, so a thread reading its own field as it
 * runs may read a value up to a tick old. Asking for the process's CPU time first (getrusage) brings
 * the calling thread's figure up to date, so the value read is current (round 5's thirteenth session,
 * docs/benchmarks.md: every caller happened to do so already; now the clock does not depend on it).
 */
export function threadCpuNs(): number {
  try {
    process.cpuUsage();
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) || 0;
  } catch {
    return 0;
  }
}

export function readingBy(m: ClockReadings, clock: Clock): number {
  return clock === 'thread' ? m.threadUsPerUnit : clock === 'cpu' ? m.cpuUsPerUnit : m.usPerUnit;
}

/** The median of a mode's samples by `clock` (the upper middle one of an even count). */
export function medianBy<T extends ClockReadings>(samples: readonly T[], clock: Clock): T {
  const sorted = [...samples].sort((a, b) => readingBy(a, clock) - readingBy(b, clock));
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The clock asked for (BENCH_CLOCK), else the thread clock when every sample has it, else the wall clock. */
export function chooseClock(requested: string | undefined, samples: readonly ClockReadings[]): Clock {
  if (requested === 'thread' || requested === 'wall' || requested === 'cpu') return requested;
  if (requested !== undefined && requested !== '') throw new Error(`BENCH_CLOCK must be thread, wall or cpu, not ${JSON.stringify(requested)}`);
  return samples.length > 0 && samples.every((m) => m.threadUsPerUnit > 0) ? 'thread' : 'wall';
}
