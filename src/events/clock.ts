/**
 * The one clock of the project. Every event timestamp, span start, span event and span end is read from
 * here, so parents never end before their children (Date.now() is 1 ms coarse and drifts from
 * performance.now()). Epoch milliseconds with a sub-millisecond fraction.
 */
const origin = performance.timeOrigin;

export function now(): number {
  return origin + performance.now();
}
