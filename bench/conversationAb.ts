/**
 * Whether a change moved issue #40's conversation target: bench/conversation.ts run on each of two
 * compiled builds, each run a process of its own (bench/fromDist.mjs with BENCH_BUILD), the builds
 * alternated over RUNS runs; each run's long / short ratios, then their medians per build. Two builds
 * in one process share one heap: each one's garbage and retained spans are collected in the other's
 * blocks, and that harness read a third of a message's cost (the part table, docs/benchmarks.md,
 * round 5's twelfth session) as no change at all. A change that makes the one-message turn cheaper
 * and leaves a message's own cost as it was raises the ratio: the µs are printed too.
 *
 *   cp -r dist node_modules/.ab/a; (change, npm run build); node --import tsx bench/conversationAb.ts node_modules/.ab/a ./dist
 *   (env: RUNS, 4; a run takes about 10 s; BENCH_CONVERSATION_LENGTH as bench/conversation.ts reads it)
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ConversationResult } from './conversation.js';
import { median } from './measure.js';

const dirs = process.argv.slice(2);
if (dirs.length !== 2) throw new Error('usage: bench/conversationAb.ts <build A dir> <build B dir>');
const RUNS = Number(process.env.RUNS ?? 4);
const run = promisify(execFile);

async function conversationOn(dir: string): Promise<ConversationResult> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', '--import', './bench/fromDist.mjs', 'bench/conversation.ts', '--json'], {
    env: { ...process.env, BENCH_BUILD: resolve(dir) },
    maxBuffer: 1 << 24,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ConversationResult;
}

const results: Record<string, ConversationResult[]> = {};
for (let i = 0; i < RUNS; i++) {
  // Alternated, the order flipped every run: a run never follows one of its own build.
  for (const dir of i % 2 === 0 ? dirs : [...dirs].reverse()) {
    const result = await conversationOn(dir);
    (results[dir] ??= []).push(result);
    const { ratio, us } = result;
    console.log(`${dir.padEnd(24)} full ${ratio.full!.toFixed(3)}x  semantic ${ratio.semantic!.toFixed(3)}x  (semantic ${us['semantic short']!.toFixed(0)} / ${us['semantic long']!.toFixed(0)} µs)`);
  }
}
for (const dir of dirs) {
  const of = (mode: string) => median(results[dir]!.map((r) => r.ratio[mode]!)).toFixed(3);
  console.log(`${dir}: median of ${RUNS} runs: untraced ${of('untraced')}x, full ${of('full')}x, semantic ${of('semantic')}x`);
}
