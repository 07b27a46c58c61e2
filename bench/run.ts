/**
 * `npm run bench`: every mode in its own process, in interleaved rounds within ONE invocation (the
 * median of each mode's rounds is reported), so drift in the machine's load hits every mode alike
 * (these machines are noisy: read ratios, not absolute times). The floor targets are read side by
 * side instead (bench/floor.ts, three processes between the rounds: the turn and its floors timed
 * in the same seconds). Prints the table, the
 * bytes footprintjs copies per turn, the tracing-overhead targets (bench/targets.ts) and the peer,
 * conversation and lineage targets (bench/peer.ts, conversation.ts, lineage.ts) marked MET or MISSED
 * with the measured values, and what outlives young collections (bench/promotion.ts, with this
 * project's guard); saves the raw numbers and the table under bench/results/.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { promisify } from 'node:util';
import type { CloneBytes } from './cloneBytes.js';
import type { ContextTaxResult } from './contextTax.js';
import type { FloorResult } from './floor.js';
import type { ConversationResult } from './conversation.js';
import type { LineageResult } from './lineage.js';
import type { PeerResult } from './peer.js';
import type { PromotionResult } from './promotion.js';
import { chooseClock, CLOCK_NAMES, medianBy, readingBy, type Clock, type ClockReadings } from './clock.js';
import { prepareMeasuredCode } from './code.js';
import { startReceiver } from './receiver.js';
import { median } from './measure.js';
import { splitLines } from './sdkReplay.js';
import { bridgeUsPerStage, floorRatio, floorUs, overheadTargets, stageFloorUs, type Measured } from './targets.js';

const run = promisify(execFile);
const code = await prepareMeasuredCode();
const quick = process.argv.includes('--quick');
const env = {
  ...process.env,
  BENCH_BUILT: code.flags.length > 0 ? '1' : '0',
  BENCH_WARMUP: quick ? '100' : '400',
  BENCH_REPEATS: quick ? '3' : '7',
  BENCH_RUNS: quick ? '100' : '400',
  BENCH_MEMORY_RUNS: quick ? '5000' : '100000',
  BENCH_SECONDS: quick ? '2' : '5',
};

interface ModeResult extends ClockReadings {
  mode: string;
  stages: number;
  spansPerRun: number;
}

async function child<T>(script: string, args: string[], flags: string[] = []): Promise<T> {
  const { stdout } = await run(process.execPath, [...flags, '--import', 'tsx', ...code.flags, script, ...args], { env, maxBuffer: 1 << 24 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

const loadAtStart = loadavg()[0]!;
const receiver = await startReceiver();
const modes = ['engine-floor', 'bare', 'untraced', 'full-noop', 'semantic-noop', 'full-otlp', 'semantic-otlp', 'sdk-floor', 'hooks-only', 'hooks-activate', 'full-unsampled', 'semantic-unsampled', 'replay-full', 'replay-semantic', 'replay-between-full', 'replay-between-semantic'];
// Interleaved rounds (every mode once per round), the median per mode: drift in the machine's load
// then hits every mode alike instead of whichever ran during a noisy minute. Five rounds: with three,
// one loaded minute could take two of a mode's samples and set its median.
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 5));
const samples: Record<string, ModeResult[]> = {};
// The floor targets' side-by-side reading (bench/floor.ts), a process after every other round, so
// its processes are spread over the invocation as the modes' rounds are.
const floors: FloorResult[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const mode of modes) {
    process.stderr.write(`bench: round ${round}/${rounds} ${mode}\n`);
    (samples[mode] ??= []).push(await child<ModeResult>('bench/child.ts', [mode, receiver.url]));
  }
  if (round % 2 === 1) {
    process.stderr.write(`bench: round ${round}/${rounds} floor, side by side\n`);
    floors.push(await child<FloorResult>('bench/floor.ts', ['--json', ...(quick ? ['--quick'] : [])], ['--expose-gc']));
  }
}
// The clock every mode is read by (bench/clock.ts): the main thread's CPU time where it can be read.
const everySample = Object.values(samples).flat();
const clock = chooseClock(process.env.BENCH_CLOCK, everySample);
const threadReadable = chooseClock(undefined, everySample) === 'thread';
const mediansBy = (by: Clock): Record<string, ModeResult> => Object.fromEntries(modes.map((mode) => [mode, medianBy(samples[mode]!, by)]));
const results = mediansBy(clock);
const timeOf = (m: ModeResult) => readingBy(m, clock);
process.stderr.write('bench: clone-bytes\n');
const cloned = await child<CloneBytes>('bench/child.ts', ['clone-bytes']);
interface LoadResult {
  rate?: number;
  runs: number;
  runsPerSecond: number;
  droppedSpans: number;
  failedExports: number;
}
process.stderr.write('bench: paced\n');
const spansBeforePaced = receiver.stats.spans;
const paced = await child<LoadResult>('bench/load.ts', ['paced', receiver.url]);
const receivedSpans = receiver.stats.spans - spansBeforePaced;
process.stderr.write('bench: unpaced\n');
const unpaced = await child<LoadResult>('bench/load.ts', ['unpaced', receiver.url]);
process.stderr.write('bench: peer (the same turn on the Vercel AI SDK, one process)\n');
const peer = await child<PeerResult>('bench/peer.ts', ['--json', ...(quick ? ['--quick'] : [])], ['--expose-gc']);
process.stderr.write('bench: conversation (20 messages against one, one process)\n');
const longer = await child<ConversationResult>('bench/conversation.ts', ['--json', ...(quick ? ['--quick'] : [])], ['--expose-gc']);
process.stderr.write('bench: conversation on the AI SDK 6 (not graded, a process of its own)\n');
const longerPeer = await child<ConversationResult>('bench/conversation.ts', ['--json', '--peer', ...(quick ? ['--quick'] : [])], ['--expose-gc']);
process.stderr.write('bench: context propagation (AsyncLocalStorage\'s promise hooks, one process)\n');
const contextTax = await child<ContextTaxResult>('bench/contextTax.ts', ['--json', ...(quick ? ['--quick'] : [])], ['--expose-gc']);
process.stderr.write('bench: lineage (the shipped build against it with lineage cut out, one process)\n');
// bench/lineage.ts times dist/ (and a cut copy of it), whichever code the other modes measure.
if (process.env.BENCH_FROM === 'src') await run('npm', ['run', 'build'], { maxBuffer: 1 << 24 });
const lineage = await child<LineageResult>('bench/lineage.ts', ['--json', ...(quick ? ['--quick'] : [])], ['--expose-gc']);
process.stderr.write('bench: promotion (what outlives young collections, V8\'s own count)\n');
const promotion = await child<PromotionResult>('bench/promotion.ts', ['--json']);
const memory: Record<string, { curve: { runs: number; heapMb: number }[] }> = {};
for (const mode of ['memory-traced', 'memory-paused']) {
  process.stderr.write(`bench: ${mode}\n`);
  memory[mode] = await child('bench/load.ts', [mode], ['--expose-gc']);
}
await receiver.close();

const r = (mode: string) => timeOf(results[mode]!);
const stages = results.untraced!.stages;
const floor = r('sdk-floor');
/** Every floor process's rounds pooled, by detail: the median is the side-by-side reading. */
const floorRounds = { full: floors.flatMap((f) => f.rounds.full), semantic: floors.flatMap((f) => f.rounds.semantic) };
const floorCpuRounds = { full: floors.flatMap((f) => f.cpuRounds.full), semantic: floors.flatMap((f) => f.cpuRounds.semantic) };
const measured: Measured = {
  usPer: r,
  sideBySide: { full: median(floorRounds.full), semantic: median(floorRounds.semantic), rounds: floorRounds.full.length },
  stages,
  spans: { full: results['full-noop']!.spansPerRun, semantic: results['semantic-noop']!.spansPerRun },
  heapCurves: Object.fromEntries(Object.entries(memory).map(([mode, m]) => [mode, m.curve])),
  paced: { rate: paced.rate!, runs: paced.runs, droppedSpans: paced.droppedSpans, failedExports: paced.failedExports, receivedSpans, spansPerRun: results['full-noop']!.spansPerRun },
};
// Each turn against its own floor: the spans it exports x the SDK's span floor + stages x the engine's (none for untraced).
const fullFloor = floorUs(measured, measured.spans.full);
const semanticFloor = floorUs(measured, measured.spans.semantic);
const engineFloor = floorUs(measured, 0);
const ms = (us: number) => `${(us / 1000).toFixed(3)} ms`;
const us = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(0)} µs`;
const share = (value: number) => `${((value / (r('full-noop') - r('untraced'))) * 100).toFixed(0)}%`;
const semanticShare = (value: number) => `${((value / (r('semantic-noop') - r('untraced'))) * 100).toFixed(0)}%`;
const rows: [string, string, string][] = [
  ['footprintjs engine floor, linear chart (per stage)', `${r('engine-floor').toFixed(1)} µs`, ''],
  ['OTel SDK span creation floor (per span)', `${floor.toFixed(2)} µs`, ''],
  ['engine+SDK floor, full detail', ms(fullFloor), `${measured.spans.full} spans x SDK floor + ${stages} stages x engine floor`],
  ['engine+SDK floor, semantic detail', ms(semanticFloor), `${measured.spans.semantic} spans x SDK floor + ${stages} stages x engine floor`],
  ['  earlier (#17): one span per stage', ms(stageFloorUs(measured)), `${stages} stages x (engine + SDK floor)`],
  ['bare footprintjs executor, agent chart (per run)', ms(r('bare')), `${(r('bare') / stages).toFixed(1)} µs/stage`],
  ['untraced runtime (per run)', ms(r('untraced')), `${(r('untraced') / r('bare')).toFixed(2)}x bare, ${(r('untraced') / engineFloor).toFixed(2)}x engine floor`],
  ['full stage spans, Batch + no-op exporter', ms(r('full-noop')), `${(r('full-noop') / r('untraced')).toFixed(2)}x untraced, ${(r('full-noop') / fullFloor).toFixed(2)}x floor`],
  ['semantic spans only, Batch + no-op exporter', ms(r('semantic-noop')), `${(r('semantic-noop') / r('untraced')).toFixed(2)}x untraced, ${(r('semantic-noop') / semanticFloor).toFixed(2)}x floor`],
  ['full stage spans, OTLP/HTTP to 127.0.0.1', ms(r('full-otlp')), `${(r('full-otlp') / r('untraced')).toFixed(2)}x untraced, ${(r('full-otlp') / fullFloor).toFixed(2)}x floor`],
  ['semantic spans only, OTLP/HTTP to 127.0.0.1', ms(r('semantic-otlp')), `${(r('semantic-otlp') / r('untraced')).toFixed(2)}x untraced, ${(r('semantic-otlp') / semanticFloor).toFixed(2)}x floor`],
  ['tracing overhead per stage (full)', `${bridgeUsPerStage(measured).toFixed(2)} µs`, `${(bridgeUsPerStage(measured) / floor).toFixed(2)}x SDK floor`],
  ['where the full overhead goes, step by step:', '', ''],
  ['  two empty stage hooks (the stages\' own reports)', us(r('hooks-only') - r('untraced')), share(r('hooks-only') - r('untraced'))],
  ['  + a context per stage (AsyncLocalStorage)', us(r('hooks-activate') - r('hooks-only')), share(r('hooks-activate') - r('hooks-only'))],
  ['  + the bridge, every span unsampled', us(r('full-unsampled') - r('hooks-activate')), share(r('full-unsampled') - r('hooks-activate'))],
  ['  + the SDK recording and batching the spans', us(r('full-noop') - r('full-unsampled')), share(r('full-noop') - r('full-unsampled'))],
  ['where the semantic overhead goes:', '', ''],
  ['  the bridge, every span unsampled', us(r('semantic-unsampled') - r('untraced')), semanticShare(r('semantic-unsampled') - r('untraced'))],
  ['  + the SDK recording and batching the spans', us(r('semantic-noop') - r('semantic-unsampled')), semanticShare(r('semantic-noop') - r('semantic-unsampled'))],
  ['the bridge alone, full (replayed turn)', ms(r('replay-full')), `${(r('replay-full') / stages / floor).toFixed(2)}x SDK floor per stage; ${share(r('replay-full'))} of the full overhead`],
  ['the bridge alone, semantic (replayed turn)', ms(r('replay-semantic')), `${(r('replay-semantic') / (r('semantic-noop') - r('untraced')) * 100).toFixed(0)}% of the semantic overhead`],
  ['  the same, full, each right after an engine turn', ms(r('replay-between-full')), `${(r('replay-between-full') / r('replay-full')).toFixed(2)}x the replay alone`],
  ['  the same, semantic, each right after an engine turn', ms(r('replay-between-semantic')), `${(r('replay-between-semantic') / r('replay-semantic')).toFixed(2)}x the replay alone`],
];
const targets = overheadTargets(measured);
// The floor targets by the other clocks, printed beside (not graded): what the clock choice changes.
const otherClocks = (['wall', 'thread', 'cpu'] as const).filter((by) => by !== clock && (by !== 'thread' || threadReadable));
const floorByClock = otherClocks.map((by) => {
  const medians = mediansBy(by);
  const byClock: Measured = { ...measured, usPer: (mode) => readingBy(medians[mode]!, by) };
  return `  the same from the modes' medians by the ${CLOCK_NAMES[by]}: full ${floorRatio(byClock, 'full').toFixed(2)}x, semantic ${floorRatio(byClock, 'semantic').toFixed(2)}x (limit 2x; not graded)`;
});
/** A floor as the side-by-side processes read it: the median of their medians (by the clock they read, bench/floor.ts). */
const sideFloor = (part: 'engine' | 'sdk') => median(floors.map((f) => f.us[part][f.clock]));
/** The lowest and highest of some rounds' ratios. */
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}x`;
const memoryLine = (mode: string) => {
  const curve = memory[mode]!.curve;
  return `${mode}: ${curve.map((p) => `${p.runs / 1000}k=${p.heapMb.toFixed(1)}MB`).join(' ')}`;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const table = [
  `footprint-otel benchmark — ${new Date().toISOString()} — node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}`,
  `${CLOCK_NAMES[clock]}, 1-min load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (${cpus().length} cores); median of ${rounds} interleaved rounds per mode; code: ${code.label}; reference turn: 3 iterations (two tool rounds, then the answer), two tools, ${stages} stages; spans per run: full ${results['full-noop']!.spansPerRun}, semantic ${results['semantic-noop']!.spansPerRun}`,
  '',
  ...rows.map(([name, value, ratio]) => `${name.padEnd(52)} ${value.padStart(12)}  ${ratio}`),
  '',
  `footprintjs copies per turn (structuredClone): ${kb(cloned.bytes)} in ${cloned.calls} clones, in ${cloned.cloningStages} of ${cloned.stages} stage executions`,
  `  by stage: ${cloned.byStage.map((s) => `${s.stage} ${kb(s.bytes)}/${s.calls}`).join(', ')}`,
  '',
  'targets (tracing overhead):',
  ...targets.map((t) => `  ${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.measured}`),
  `  side by side (bench/floor.ts: ${floors.length} process${floors.length === 1 ? '' : 'es'}, ${floorRounds.full.length} rounds, the floors in a worker thread, by ${floors.every((f) => f.clock === 'thread') ? "each thread's CPU time" : 'the process CPU time'}): the rounds read full ${spread(floorRounds.full)}, semantic ${spread(floorRounds.semantic)}; its floors ${sideFloor('engine').toFixed(1)} µs a stage and ${sideFloor('sdk').toFixed(2)} µs a span (the modes' own processes above: ${r('engine-floor').toFixed(1)} and ${floor.toFixed(2)}); by the process CPU time full ${median(floorCpuRounds.full).toFixed(2)}x, semantic ${median(floorCpuRounds.semantic).toFixed(2)}x (not graded)`,
  `  the two floor targets from the modes' medians above, a process each (graded until round 5's thirteenth session): full ${floorRatio(measured, 'full').toFixed(2)}x, semantic ${floorRatio(measured, 'semantic').toFixed(2)}x (not graded)`,
  ...floorByClock,
  '',
  `against the Vercel AI SDK (bench/peer.ts: one process, ${peer.rounds} interleaved rounds of ${peer.block} turns, process CPU µs per turn):`,
  `  ${Object.entries(peer.us).map(([mode, value]) => `${mode} ${value.toFixed(0)} (${peer.spans[mode]} spans)`).join(', ')}`,
  ...peer.reported.map((r) => `  ${r.name}: ${r.value.toFixed(2)}x`),
  ...splitLines(peer.splits),
  ...peer.targets.map((t) => `  ${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.value.toFixed(2)}x (limit ${t.limit}x)`),
  '',
  `a ${longer.length}-message conversation against one message (bench/conversation.ts: one process, interleaved, process CPU µs per turn):`,
  `  ${Object.entries(longer.us).map(([mode, value]) => `${mode} ${value.toFixed(0)}`).join(', ')}; untraced ${longer.ratio.untraced!.toFixed(2)}x`,
  ...longer.targets.map((t) => `  ${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.value.toFixed(2)}x (limit ${t.limit}x)`),
  `  the same turn on the AI SDK 6 (bench/conversation.ts --peer, not graded): ${Object.entries(longerPeer.us).map(([mode, value]) => `${mode} ${value.toFixed(0)}`).join(', ')}; ${Object.entries(longerPeer.ratio).map(([mode, value]) => `${mode} ${value.toFixed(2)}x`).join(', ')}`,
  '',
  `what context propagation costs (bench/contextTax.ts: one process, ${contextTax.rounds} interleaved rounds of ${contextTax.block} turns, process CPU µs per turn):`,
  `  ${Object.entries(contextTax.us).map(([mode, value]) => `${mode} ${value.toFixed(0)}`).join(', ')}`,
  `  AsyncLocalStorage's promise hooks (on in every traced turn, off in the floor and in the untraced mode above) add ${contextTax.tax.toFixed(0)} µs to the untraced turn: ${((contextTax.tax / contextTax.us.full) * 100).toFixed(0)}% of the full traced turn, ${((contextTax.tax / contextTax.us.semantic) * 100).toFixed(0)}% of the semantic one`,
  '',
  `what lineage costs (bench/lineage.ts: dist/ against it with lineage cut out, one process, ${lineage.rounds} interleaved rounds of ${lineage.block} turns, process CPU µs per turn; a lower bound):`,
  `  ${Object.entries(lineage.ratios).map(([mode, r]) => `${mode} ${lineage.us[`shipped ${mode}`]!.toFixed(0)} / ${lineage.us[`cut ${mode}`]!.toFixed(0)} = ${r.median.toFixed(3)}x`).join(', ')}`,
  ...lineage.targets.map((t) => `  ${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.value.toFixed(3)}x (limit ${t.limit}x)`),
  `  the OTel SDK alone for lineage's links and attributes (bench/lineageSdkFloor.ts): ${Object.entries(lineage.sdkFloor).map(([mode, f]) => `${mode} ${f.lineage.toFixed(1)} µs = ${(f.share * 100).toFixed(1)}% (part tables ${(f.partTableShare * 100).toFixed(1)}%)`).join(', ')} of the traced turn, paid by any implementation of this trace`,
  '',
  `what outlives young collections (bench/promotion.ts: V8's --trace-gc-nvp over ${promotion.turns} turns per mode):`,
  `  ${Object.entries(promotion.modes).map(([mode, m]) => `${mode} ${(m.promotedPerTurn / 1024).toFixed(1)} of ${(m.allocatedPerTurn / 1024).toFixed(1)} KB per turn, ${(m.share * 100).toFixed(1)}%`).join('; ')}`,
  `  ${promotion.guard.met ? 'MET   ' : 'MISSED'} ${promotion.guard.name}: ${(promotion.guard.value * 100).toFixed(1)}% (this project's guard, not an issue's target)`,
  '',
  `throughput (startTelemetry -> OTLP/HTTP receiver on 127.0.0.1, full spans, default queue 2048):`,
  `  paced ${paced.rate} runs/s: ${paced.runs} runs, ${receivedSpans} spans received, ${paced.droppedSpans} dropped, ${paced.failedExports} failed exports`,
  `  unpaced (32 in flight): ${unpaced.runsPerSecond.toFixed(0)} runs/s, ${unpaced.droppedSpans} spans dropped (counted), ${unpaced.failedExports} failed exports; runs never waited on export`,
  '',
  'heap after GC (MB) over runs:',
  `  ${memoryLine('memory-traced')}`,
  `  ${memoryLine('memory-paused')}`,
];
console.log(table.join('\n'));
mkdirSync('bench/results', { recursive: true });
const stamp = quick ? 'quick' : 'latest';
writeFileSync(`bench/results/${stamp}.json`, JSON.stringify({ clock, results, samples, floors, cloned, peer, conversation: longer, conversationPeer: longerPeer, contextTax, lineage, promotion, paced: { ...paced, receivedSpans }, unpaced, memory, targets }, null, 2));
writeFileSync(`bench/results/${stamp}.txt`, `${table.join('\n')}\n`);
