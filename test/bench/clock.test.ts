/**
 * bench/clock.ts: which clock `npm run bench` reads its modes by, and each mode's median by a clock.
 * The thread clock is the default only where every child could read it (Linux's schedstat), and it
 * reads the thread's time as it is at the moment it is read.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chooseClock, medianBy, readingBy, type ClockReadings } from '../../bench/clock.js';

const sample = (wall: number, cpu: number, thread: number): ClockReadings => ({ usPerUnit: wall, cpuUsPerUnit: cpu, threadUsPerUnit: thread });

describe('the benchmark clock', () => {
  it('reads a sample by the clock asked for', () => {
    const s = sample(180, 240, 170);
    expect([readingBy(s, 'wall'), readingBy(s, 'cpu'), readingBy(s, 'thread')]).toEqual([180, 240, 170]);
  });

  it("is the main thread's CPU time when every sample has it, else the wall clock, unless BENCH_CLOCK names one", () => {
    const withThread = [sample(1, 1, 1), sample(2, 2, 2)];
    const oneWithout = [sample(1, 1, 1), sample(2, 2, 0)];
    expect(chooseClock(undefined, withThread)).toBe('thread');
    expect(chooseClock('', withThread)).toBe('thread');
    expect(chooseClock(undefined, oneWithout)).toBe('wall');
    expect(chooseClock(undefined, [])).toBe('wall');
    expect(chooseClock('wall', withThread)).toBe('wall');
    expect(chooseClock('cpu', oneWithout)).toBe('cpu');
    expect(() => chooseClock('monotonic', withThread)).toThrow('BENCH_CLOCK must be thread, wall or cpu, not "monotonic"');
  });

  it("takes each mode's median round by that clock, so the clocks may pick different rounds", () => {
    // The second round was descheduled: long by the wall clock, not by the thread's CPU time.
    const rounds = [sample(160, 210, 158), sample(400, 230, 161), sample(170, 220, 166)];
    expect(medianBy(rounds, 'wall')).toBe(rounds[2]);
    expect(medianBy(rounds, 'thread')).toBe(rounds[1]);
    expect(medianBy(rounds, 'cpu')).toBe(rounds[2]);
  });

  it("reads the thread's CPU time in nanoseconds, current to the moment it is read (0 without Linux's schedstat)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/fixtures/threadClockInChild.ts'], { cwd: process.cwd() });
    const readings = JSON.parse(stdout) as [number, number][];
    expect(readings).toHaveLength(50);
    if (!existsSync('/proc/thread-self/schedstat')) return expect(new Set(readings.map(([thread]) => thread))).toEqual(new Set([0]));
    // Each spin takes about a tenth of a scheduler tick (4 ms here). Read as the thread ran, the
    // kernel's figure stood still until the next tick: the old clock read 0 ns for 42-46 spins of 50.
    // Current, it reads every spin's time, and never more than the process's clock, whose reads
    // enclose the thread's (within that clock's microsecond resolution). The process's clock may read
    // more (its other threads), so how much more is not asserted.
    expect(readings.filter(([thread]) => thread <= 0), 'spins the thread clock read no time for').toEqual([]);
    expect(readings.filter(([thread, processWide]) => thread > processWide + 100_000), 'spins the thread read more than the process for').toEqual([]);
  });
});
