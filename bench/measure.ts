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
  await flush();
  collect?.({ type: 'minor' });
  const undo = around?.();
  const perCall = await cpuPerCall(call, calls);
  undo?.();
  if (!collect) return perCall;
  const started = process.cpuUsage();
  collect({ type: 'minor' });
  const used = process.cpuUsage(started);
  return perCall + (used.user + used.system) / calls;
}
