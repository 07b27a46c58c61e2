/**
 * Two compiled builds of the package in ONE process, interleaved (bench/interleaved.ts): the
 * reference turn untraced and traced on each, the median per-round ratio build B / build A. What is
 * process-wide (an enabled AsyncLocalStorage costs every promise) hits both builds alike, so a
 * change of that kind is measured apart (bench/asyncStores.ts).
 *
 *   cp -r dist node_modules/.ab/a; (change, npm run build); node --expose-gc --import tsx bench/ab.ts node_modules/.ab/a ./dist
 *   (a copy inside the repository, so its imports of footprintjs and the OTel SDK resolve)
 *   env: AB_ROUNDS (15), AB_BLOCK (100 turns), AB_MODES (untraced,full,semantic), AB_CONVERSATION
 *   (n: each run is given an n-message conversation, bench/interleaved.ts). On a loaded machine,
 *   many short blocks (AB_BLOCK=40 AB_ROUNDS=80) and the same pair in both orders read steadier
 *   than the defaults (docs/benchmarks.md, round 5's second session). Under --expose-gc each
 *   block starts on an empty young generation (bench/interleaved.ts): without it, the block after a
 *   traced one pays for that one's garbage, and the two orders of a round disagree.
 */
import { inProcessTracing } from './inProcessTracing.js';
import { interleaved, loadBuild, type Mode } from './interleaved.js';
import { median } from './measure.js';

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: bench/ab.ts <build A dir> <build B dir>');
const BLOCK = Number(process.env.AB_BLOCK ?? 100);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 15);
const modes = (process.env.AB_MODES ?? 'untraced,full,semantic').split(',') as Mode[];

const { provider } = inProcessTracing();

const builds = [await loadBuild('A', dirA), await loadBuild('B', dirB)] as const;
const { us, ratios } = await interleaved(builds, modes, { block: BLOCK, rounds: ROUNDS, provider });
await provider.shutdown();
console.log(`A = ${dirA}, B = ${dirB}: ${ROUNDS} interleaved rounds of ${BLOCK} turns, process CPU µs per turn (median)`);
for (const [name, xs] of Object.entries(us)) console.log(`  ${name.padEnd(12)} ${median(xs).toFixed(0).padStart(6)} µs`);
for (const [mode, xs] of Object.entries(ratios)) console.log(`  B/A ${mode.padEnd(9)} ${median(xs).toFixed(3)}x`);
