/**
 * bench/gcTrace.ts: what bench/promotion.ts reads of V8's --trace-gc-nvp lines (scavenges only,
 * after the child's marker).
 */
import { describe, expect, it } from 'vitest';
import { promotionOf } from '../../bench/gcTrace.js';

const MARK = '--- measured';
// The shape of V8's lines (fields trimmed): a scavenge `gc=s`, a full collection `gc=mc`.
const line = (gc: string, allocated: number, promoted: number) => `[1:0x1]   12 ms: pause=2.1 mutator=5.0 gc=${gc} reduce_memory=0 total_size_before=9 allocated=${allocated} promoted=${promoted} semi_space_copied=7`;

describe('promotionOf', () => {
  it('sums the scavenges after the marker and skips full collections and the warm-up', () => {
    const trace = [line('s', 999, 999), MARK, line('s', 1000, 30), 'the child printed this', line('mc', 5000, 400), line('s', 2000, 50)].join('\n');
    expect(promotionOf(trace, MARK)).toEqual({ allocated: 3000, promoted: 80, scavenges: 2 });
  });

  it('reads nothing from a trace without scavenges after the marker', () => {
    expect(promotionOf([line('s', 10, 1), MARK, line('mc', 10, 1)].join('\n'), MARK)).toEqual({ allocated: 0, promoted: 0, scavenges: 0 });
  });
});
