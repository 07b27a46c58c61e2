/**
 * `npm run bench:stream`: a 500-chunk reply streamed (agent.stream()) against the same reply completed
 * in one piece (agent.run()), untraced and traced, in ONE process: one OTel SDK (BasicTracerProvider,
 * BatchSpanProcessor into a counting exporter), the AsyncLocalStorage context manager on throughout,
 * and tracing switched on per block by registering the tracing instrument, as bench/peer.ts does. Blocks
 * of every mode are interleaved over rounds (in order, then in reverse), timed by process CPU time (a loaded machine inflates it
 * less than the wall clock), and each round's blocks give one reading of what tracing adds per chunk:
 *
 *   ((stream traced - stream untraced) - (whole traced - whole untraced)) / chunks
 *
 * the median over rounds is reported. The context manager is on in every mode, so this is what the
 * bridge and the SDK add per chunk (what AsyncLocalStorage costs a turn, bench/child.ts's
 * hooks-activate measures). Also reported, with no target: the same for the metrics instrument on top
 * of tracing (one time_per_output_chunk record per chunk after the first, docs/streaming-telemetry.md).
 * Then heap after GC every 10% of 10,000 streamed turns, traced and metered, flat per FLAT_HEAP_MB.
 * Prints MET/MISSED and writes the table to bench/results/stream.txt (stream-quick.txt with --quick).
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Agent, metricsInstrument, registerInstrument, scripted, tracingInstrument, type Runner } from '../src/index.js';
import { FLAT_HEAP_MB } from './targets.js';
import { countingExporter } from './countingExporter.js';
import { cpuPerCall, median } from './measure.js';

const quick = process.argv.includes('--quick');
const CHUNKS = 500;
const WARMUP = quick ? 20 : 60;
/** Turns per block: a streamed turn costs some times a one-piece one, so its blocks are shorter in turns, alike in time. */
const BLOCK = { stream: quick ? 8 : 20, whole: quick ? 32 : 80 };
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? (quick ? 3 : 9));
const HEAP_TURNS = quick ? 2_000 : 10_000;
const MESSAGE = 'Summarise the refund policy.';
/** The reply: CHUNKS pieces of four characters, streamed with no delay (only the runtime's own work is timed). */
const PIECES = Array.from({ length: CHUNKS }, (_, i) => `t${String(i % 1000).padStart(3, '0')}`);
const ANSWER = PIECES.join('');

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench:stream needs node --expose-gc (npm run bench:stream passes it)');

const counting = countingExporter();
/** Collects only when asked (never during the bench): the metrics' cost is their recording. */
class IdleReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(counting)] });
const meterProvider = new MeterProvider({ readers: [new IdleReader()] });

const agent: Runner = Agent.create({
  provider: scripted({ name: 'openai', replies: () => ({ chunks: PIECES, usage: { input: 60, output: CHUNKS } }) }),
  model: 'gpt-4o-mini',
  id: 'writer',
})
  .system('You write summaries.')
  .build();

async function streamed(): Promise<string> {
  const stream = agent.stream(MESSAGE);
  let text = '';
  for await (const part of stream) if (part.type === 'text') text += part.delta;
  const result = (await stream.result).text;
  if (text !== result) throw new Error('bench:stream: the streamed text is not the result');
  return text;
}
const whole = async () => (await agent.run(MESSAGE)).text;

interface Mode {
  name: string;
  turn: () => Promise<string>;
  block: number;
  /** Registers the mode's instruments for a block; returns how to remove them. */
  around: () => () => void;
}
const none = () => () => {};
const traced = () => registerInstrument(tracingInstrument({ tracerProvider }));
const metered = () => {
  const undo = [traced(), registerInstrument(metricsInstrument({ meterProvider }))];
  return () => undo.forEach((f) => f());
};
const modes: Mode[] = [
  { name: 'whole-untraced', turn: whole, block: BLOCK.whole, around: none },
  { name: 'stream-untraced', turn: streamed, block: BLOCK.stream, around: none },
  { name: 'whole-traced', turn: whole, block: BLOCK.whole, around: traced },
  { name: 'stream-traced', turn: streamed, block: BLOCK.stream, around: traced },
  { name: 'whole-metered', turn: whole, block: BLOCK.whole, around: metered },
  { name: 'stream-metered', turn: streamed, block: BLOCK.stream, around: metered },
];

/** One turn of each mode: the same answer everywhere, and its spans counted. */
async function check(mode: Mode): Promise<number> {
  const undo = mode.around();
  await tracerProvider.forceFlush();
  const before = counting.exported;
  const answer = await mode.turn();
  undo();
  await tracerProvider.forceFlush();
  if (answer !== ANSWER) throw new Error(`bench:stream: ${mode.name} answered something else`);
  return counting.exported - before;
}

/** Process CPU µs per turn over a block of `turns` turns of the mode. */
async function block(mode: Mode, turns: number): Promise<number> {
  const undo = mode.around();
  const perTurn = await cpuPerCall(() => mode.turn(), turns, 10);
  undo();
  return perTurn;
}

const spans: Record<string, number> = {};
for (const mode of modes) spans[mode.name] = await check(mode);
for (const mode of modes) await block(mode, WARMUP);
const samples: Record<string, number[]> = {};
const tracingPerChunk: number[] = [];
const metricsPerChunk: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  process.stderr.write(`bench:stream: round ${round}/${ROUNDS}\n`);
  // Every mode once in order, then once in reverse: a drift in the machine's load within the round
  // then weighs on every mode alike.
  const us: Record<string, number> = {};
  for (const mode of [...modes, ...[...modes].reverse()]) us[mode.name] = (us[mode.name] ?? 0) + (await block(mode, mode.block)) / 2;
  for (const mode of modes) (samples[mode.name] ??= []).push(us[mode.name]!);
  const added = (stream: [string, string], one: [string, string]) => (us[stream[0]]! - us[stream[1]]! - (us[one[0]]! - us[one[1]]!)) / CHUNKS;
  tracingPerChunk.push(added(['stream-traced', 'stream-untraced'], ['whole-traced', 'whole-untraced']));
  metricsPerChunk.push(added(['stream-metered', 'stream-traced'], ['whole-metered', 'whole-traced']));
}

process.stderr.write(`bench:stream: heap over ${HEAP_TURNS} streamed turns, traced and metered\n`);
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};
const curve: { turns: number; heapMb: number }[] = [{ turns: 0, heapMb: heapMb() }];
{
  const undo = metered();
  for (let i = 1; i <= HEAP_TURNS; i++) {
    await streamed();
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    if (i % (HEAP_TURNS / 10) === 0) curve.push({ turns: i, heapMb: heapMb() });
  }
  undo();
}
await tracerProvider.shutdown();
await meterProvider.shutdown();

const us = Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)]));
const perChunk = median(tracingPerChunk);
const growth = curve.at(-1)!.heapMb - curve[1]!.heapMb;
const targets = [
  { name: 'tracing adds <= 1 µs per chunk beyond what it adds to the reply completed in one piece', met: perChunk <= 1, measured: `${perChunk.toFixed(3)} µs per chunk` },
  {
    name: `heap flat over ${HEAP_TURNS} streamed turns (growth after the first 10% <= ${FLAT_HEAP_MB} MB)`,
    met: growth <= FLAT_HEAP_MB,
    measured: `${growth >= 0 ? '+' : ''}${growth.toFixed(2)} MB`,
  },
];
const ratio = (a: string, b: string) => `${(us[a]! / us[b]!).toFixed(2)}x`;
const lines = [
  `footprint-otel stream benchmark — ${new Date().toISOString()} — node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, 1-min load ${loadavg()[0]!.toFixed(1)}`,
  `one process, src/ through tsx; a ${CHUNKS}-chunk reply; ${ROUNDS} rounds, each every mode in order then in reverse (blocks of ${BLOCK.stream} streamed / ${BLOCK.whole} one-piece turns); median over rounds, process CPU µs per turn`,
  '',
  ...modes.map((m) => `  ${m.name.padEnd(16)} ${us[m.name]!.toFixed(0).padStart(7)} µs   ${spans[m.name]} spans per turn`),
  '',
  `  streamed / whole, untraced ${ratio('stream-untraced', 'whole-untraced')}, traced ${ratio('stream-traced', 'whole-traced')}`,
  `  traced / untraced, whole ${ratio('whole-traced', 'whole-untraced')}, streamed ${ratio('stream-traced', 'stream-untraced')}`,
  `  tracing per chunk beyond the one-piece reply, by round (µs): ${tracingPerChunk.map((x) => x.toFixed(3)).join(' ')}`,
  `  metrics on top of tracing, per chunk beyond the one-piece reply (no target; median, µs): ${median(metricsPerChunk).toFixed(3)}`,
  `  heap after GC (MB): ${curve.map((p) => `${p.turns / 1000}k=${p.heapMb.toFixed(1)}`).join(' ')}`,
  '',
  'targets:',
  ...targets.map((t) => `  ${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.measured}`),
];
console.log(lines.join('\n'));
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/${quick ? 'stream-quick' : 'stream'}.txt`, `${lines.join('\n')}\n`);
