/**
 * `npm run bench:promotion`: how much of what the reference turn allocates outlives young-generation
 * collections. An object promoted to the old generation is copied twice and then waits for a full
 * collection; a turn whose objects die young costs the scavenger almost nothing. One object literal
 * with a getter in the tool path (agent/toolRunner.ts CallContext) once had 16.8% of a turn's
 * allocations promoted, and every traced and untraced turn paid for it in garbage collection, which
 * no timing benchmark singled out. V8 reports it (--trace-gc-nvp: `allocated=` and `promoted=` per
 * scavenge), for each mode in a child of its own (bench/promotionChild.ts); the share is the sum of
 * promoted over the sum of allocated, over the scavenges of the measured turns.
 *
 * Traced modes keep their spans in the BatchSpanProcessor until it exports them, so some promotion
 * is theirs by design. The guard: untraced, at most GUARD of a turn's allocations promoted.
 * --json: one JSON line for bench/run.ts.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { prepareMeasuredCode } from './code.js';
import { promotionOf } from './gcTrace.js';

const MODES = ['untraced', 'full', 'semantic'] as const;
/** The line the child prints where its measured turns start. */
const MEASURED_FROM = '--- promotion: measured from here';
const TURNS = Number(process.env.PROMOTION_TURNS ?? 4000);
/** The untraced turn's guard: footprintjs's own linear chart promotes about 3% of what it allocates. */
const GUARD = 0.05;

export interface PromotionResult {
  turns: number;
  /** By mode: bytes allocated and promoted per turn, the share promoted, the scavenges counted. */
  modes: Record<string, { allocatedPerTurn: number; promotedPerTurn: number; share: number; scavenges: number }>;
  guard: { name: string; value: number; limit: number; met: boolean };
}

const code = await prepareMeasuredCode();
const modes: PromotionResult['modes'] = {};
for (const mode of MODES) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', ...code.flags, 'bench/promotionChild.ts', mode, MEASURED_FROM], {
    env: { ...process.env, PROMOTION_TURNS: String(TURNS) },
    maxBuffer: 1 << 26,
  });
  if (!stdout.includes(MEASURED_FROM)) throw new Error(`bench/promotion.ts: the ${mode} child printed no "${MEASURED_FROM}"`);
  const { allocated, promoted, scavenges } = promotionOf(stdout, MEASURED_FROM);
  if (scavenges === 0) throw new Error(`bench/promotion.ts: no scavenge in the ${mode} child's ${TURNS} measured turns: nothing to read`);
  modes[mode] = { allocatedPerTurn: allocated / TURNS, promotedPerTurn: promoted / TURNS, share: promoted / allocated, scavenges };
}
const untraced = modes.untraced!.share;
const result: PromotionResult = {
  turns: TURNS,
  modes,
  guard: { name: `untraced: at most ${GUARD * 100}% of what a turn allocates is promoted`, value: untraced, limit: GUARD, met: untraced <= GUARD },
};

if (process.argv.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`what outlives young collections (bench/promotion.ts: V8's --trace-gc-nvp over ${TURNS} turns per mode, ${code.label}):`);
  for (const [mode, m] of Object.entries(modes)) {
    console.log(`  ${mode.padEnd(9)} ${(m.allocatedPerTurn / 1024).toFixed(1)} KB allocated, ${(m.promotedPerTurn / 1024).toFixed(1)} KB promoted per turn: ${(m.share * 100).toFixed(1)}% (${m.scavenges} scavenges)`);
  }
  console.log(`  ${result.guard.met ? 'MET   ' : 'MISSED'} ${result.guard.name}: ${(untraced * 100).toFixed(1)}%`);
}
