/**
 * The bytes the reference turn allocates, per build and mode: V8's young generation (new space and
 * its large objects) read before and after each turn, median over the turns (a turn with a
 * collection inside reads low or negative; one in about fifty). Unlike a CPU time, this does not move with
 * the machine's load: about 1 KiB apart is a real difference. Give each build twice and compare
 * neighbours: the very first untraced block runs before any traced run has enabled AsyncLocalStorage
 * and reads some 17 KiB lower (its promise hooks), and the first blocks read a little high.
 *
 *   node --import tsx bench/allocAb.ts node_modules/.ab/a ./dist node_modules/.ab/a ./dist
 *   env: AB_MODES (untraced,full,semantic), ALLOC_TURNS (1500), AB_CONVERSATION (n: the turn given an
 *   n-message conversation, bench/interleaved.ts AB_INPUT, instead of its one message)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { inProcessTracing } from './inProcessTracing.js';
import { referenceAgent } from './scenario.js';
import { AB_INPUT } from './interleaved.js';
import { median } from './measure.js';
import type * as Package from '../src/index.js';

const dirs = process.argv.slice(2);
if (dirs.length === 0) throw new Error('usage: bench/allocAb.ts <build dir>...');
const modes = (process.env.AB_MODES ?? 'untraced,full,semantic').split(',') as ('untraced' | 'full' | 'semantic')[];
const TURNS = Number(process.env.ALLOC_TURNS ?? 1500);

const { provider } = inProcessTracing();

const YOUNG = new Set(['new_space', 'new_large_object_space']);
function youngBytes(): number {
  let bytes = 0;
  for (const space of getHeapSpaceStatistics()) if (YOUNG.has(space.space_name)) bytes += space.space_used_size;
  return bytes;
}

for (const dir of dirs) {
  const m = (await import(pathToFileURL(resolve(dir, 'index.js')).href)) as typeof Package;
  const agent = referenceAgent(m);
  for (const mode of modes) {
    const undo = mode === 'untraced' ? undefined : m.registerInstrument(m.tracingInstrument({ tracerProvider: provider, detail: mode }));
    for (let i = 0; i < 300; i++) await agent.run(AB_INPUT);
    const perTurn: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      await new Promise((settle) => setImmediate(settle));
      const before = youngBytes();
      await agent.run(AB_INPUT);
      const after = youngBytes();
      perTurn.push(after - before);
    }
    undo?.();
    console.log(`${dir.padEnd(24)} ${mode.padEnd(9)} ${(median(perTurn) / 1024).toFixed(1).padStart(7)} KiB per turn (median of ${TURNS})`);
  }
}
await provider.shutdown();
