/**
 * Reading V8's `--trace-gc-nvp` output (bench/promotion.ts): one line per collection, `gc=s` for a
 * young-generation scavenge, with `allocated=` (bytes allocated since the collection before) and
 * `promoted=` (bytes moved to the old generation). A module of its own so it can be tested without
 * starting the benchmark's children.
 */

/** Sums the scavenges' `allocated=` and `promoted=` over the lines after `from` (the whole trace when it is absent: a caller checks). */
export function promotionOf(trace: string, from: string): { allocated: number; promoted: number; scavenges: number } {
  const at = trace.indexOf(from);
  const measured = at < 0 ? trace : trace.slice(at + from.length);
  let allocated = 0;
  let promoted = 0;
  let scavenges = 0;
  for (const line of measured.split('\n')) {
    if (!/\bgc=s\b/.test(line)) continue;
    scavenges++;
    allocated += Number(/\ballocated=(\d+)/.exec(line)?.[1] ?? 0);
    promoted += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
  }
  return { allocated, promoted, scavenges };
}
