/**
 * Two compiled builds of the package in ONE process, interleaved: the reference turn
 * (bench/scenario.ts's, rebuilt on each build's own exports) untraced and traced on each, blocks
 * alternating (order flipped every round), process CPU µs per turn, the median per-round ratio
 * build B / build A. On a machine shared with other work, a ratio measured this way is the one
 * number that means something: both builds see the same load. Both builds share footprintjs and
 * the OTel SDK; what is process-wide (an enabled AsyncLocalStorage costs every promise) hits both
 * builds alike, so a change of that kind is measured apart (bench/asyncStores.ts).
 *
 *   cp -r dist node_modules/.ab/a; (change, npm run build); node --import tsx bench/ab.ts node_modules/.ab/a ./dist
 *   (a copy inside the repository, so its imports of footprintjs and the OTel SDK resolve)
 *   env: AB_ROUNDS (15), AB_BLOCK (100 turns), AB_MODES (untraced,full,semantic). On a loaded
 *   machine, many short blocks (AB_BLOCK=40 AB_ROUNDS=80) and the same pair in both orders read
 *   steadier than the defaults (docs/benchmarks.md, round 5's second session).
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countingExporter } from './countingExporter.js';
import { MESSAGE, referenceAgent } from './scenario.js';
import { cpuPerCall, median } from './measure.js';
import type * as Package from '../src/index.js';

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: bench/ab.ts <build A dir> <build B dir>');
const BLOCK = Number(process.env.AB_BLOCK ?? 100);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 15);
const modes = (process.env.AB_MODES ?? 'untraced,full,semantic').split(',') as ('untraced' | 'full' | 'semantic')[];

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(countingExporter())] });

const builds = await Promise.all(
  [['A', dirA], ['B', dirB]].map(async ([name, dir]) => {
    const m = (await import(pathToFileURL(resolve(dir!, 'index.js')).href)) as typeof Package;
    return { name: name!, m, agent: referenceAgent(m) };
  }),
);

async function block(build: (typeof builds)[number], mode: (typeof modes)[number], turns: number): Promise<number> {
  const undo = mode === 'untraced' ? undefined : build.m.registerInstrument(build.m.tracingInstrument({ tracerProvider: provider, detail: mode }));
  const perTurn = await cpuPerCall(() => build.agent.run(MESSAGE), turns);
  undo?.();
  return perTurn;
}

for (const build of builds) for (const mode of modes) await block(build, mode, 300);
const ratios: Record<string, number[]> = {};
const us: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of modes) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    const t: Record<string, number> = {};
    for (const build of order) (us[`${build.name} ${mode}`] ??= []).push((t[build.name] = await block(build, mode, BLOCK)));
    (ratios[mode] ??= []).push(t.B! / t.A!);
  }
}
await provider.shutdown();
console.log(`A = ${dirA}, B = ${dirB}: ${ROUNDS} interleaved rounds of ${BLOCK} turns, process CPU µs per turn (median)`);
for (const [name, xs] of Object.entries(us)) console.log(`  ${name.padEnd(12)} ${median(xs).toFixed(0).padStart(6)} µs`);
for (const [mode, xs] of Object.entries(ratios)) console.log(`  B/A ${mode.padEnd(9)} ${median(xs).toFixed(3)}x`);
