/**
 * The two measurements the in-process benchmarks share: the process CPU time per call over a block
 * of calls run one after another (yielding to the event loop now and then, so timers and batch
 * exports run between calls as they would in an app), and the median the rounds are read by.
 */

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Process CPU µs per call over `calls` calls of `call` in a row, yielding every `yieldEvery` calls. */
export async function cpuPerCall(call: () => Promise<unknown>, calls: number, yieldEvery = 50): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    await call();
    if (i % yieldEvery === 0) await new Promise((r) => setImmediate(r));
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}
