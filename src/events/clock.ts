/**
 * The one clock of the project. Every event timestamp, span start, span event and span end is read from
 * here, so parents never end before their children (Date.now() is 1 ms coarse and drifts from
 * performance.now()). Epoch milliseconds with a sub-millisecond fraction.
 *
 * It counts from the process's start, so a wall clock stepped ahead later (NTP correcting it, a VM
 * resumed) would leave it behind the Date.now() the OTel SDK stamps the spans it times itself with: a
 * caller's span, an HTTP instrumentation's. catchUpWithWallClock() moves it forward to the wall clock
 * then, and only forward: a clock going back would let a span of a run in progress end before it started.
 */
let origin = performance.timeOrigin;

export function now(): number {
  return origin + performance.now();
}

/**
 * Moves the clock forward to the wall clock if the wall clock is ahead of it. Called as each run span
 * starts (otel/placement/runSpans.ts): one Date.now() a run, so a run never starts before the span of
 * the caller that started it, whichever clock timed that span.
 */
export function catchUpWithWallClock(): void {
  const behind = Date.now() - now();
  if (behind > 0) origin += behind;
}
