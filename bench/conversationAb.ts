/**
 * Two compiled builds in ONE process, each running the reference turn given one message and given a
 * 20-message conversation (bench/conversation.ts's inputs), blocks interleaved with the order flipped
 * every round: each build's long / short ratio, issue #40's conversation target, read side by side.
 * bench/conversation.ts reads it for the shipped build alone; this says whether a change moved it.
 * A change that makes the one-message turn cheaper and leaves a message's own cost as it was raises
 * the ratio: both numbers are printed.
 *
 *   node --expose-gc --import tsx bench/conversationAb.ts node_modules/.ab/a ./dist   (env: DETAIL semantic|full, ROUNDS 20)
 */
import { inProcessTracing } from './inProcessTracing.js';
import { block, loadBuild } from './interleaved.js';
import { median } from './measure.js';
import { conversation } from './scenario.js';

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: bench/conversationAb.ts <build A dir> <build B dir>');
const detail = process.env.DETAIL === 'full' ? 'full' : 'semantic';
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const BLOCK = 200;
const { provider } = inProcessTracing();
const builds = [await loadBuild('A', dirA), await loadBuild('B', dirB)] as const;
const inputs = { short: conversation(1), long: conversation(20) };
type Input = keyof typeof inputs;

for (const build of builds) for (const input of ['short', 'long'] as const) await block(build, detail, 400, provider, inputs[input]);
const us: Record<string, number[]> = {};
const ratios: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
    const t: Partial<Record<Input, number>> = {};
    for (const input of round % 2 === 0 ? (['short', 'long'] as const) : (['long', 'short'] as const)) (us[`${build.name} ${input}`] ??= []).push((t[input] = await block(build, detail, BLOCK, provider, inputs[input])));
    (ratios[build.name] ??= []).push(t.long! / t.short!);
  }
}
await provider.shutdown();
console.log(`A = ${dirA}, B = ${dirB}: ${detail} detail, ${ROUNDS} interleaved rounds of ${BLOCK} turns, process CPU µs per turn (median)`);
for (const [name, xs] of Object.entries(us)) console.log(`  ${name.padEnd(8)} ${median(xs).toFixed(0).padStart(5)} µs`);
for (const [name, xs] of Object.entries(ratios)) console.log(`  ${name} 20 messages / 1: ${median(xs).toFixed(3)}x`);
