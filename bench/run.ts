/**
 * `npm run bench`: every mode in its own process, in interleaved rounds within ONE invocation (the
 * median of each mode's rounds is reported), so the ratios compare numbers taken side by side on the
 * same machine (these machines are noisy: read ratios, not absolute times). Prints the table with each target marked met or missed and saves the raw
 * numbers and the table under bench/results/.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { promisify } from 'node:util';
import { startReceiver } from './receiver.js';

const run = promisify(execFile);
const quick = process.argv.includes('--quick');
const env = {
  ...process.env,
  BENCH_WARMUP: quick ? '100' : '400',
  BENCH_REPEATS: quick ? '3' : '7',
  BENCH_RUNS: quick ? '100' : '400',
  BENCH_MEMORY_RUNS: quick ? '5000' : '100000',
  BENCH_SECONDS: quick ? '2' : '5',
};

interface ModeResult {
  mode: string;
  usPerUnit: number;
  stages: number;
  spansPerRun: number;
}

async function child<T>(script: string, args: string[], flags: string[] = []): Promise<T> {
  const { stdout } = await run(process.execPath, [...flags, '--import', 'tsx', script, ...args], { env, maxBuffer: 1 << 24 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

const receiver = await startReceiver();
const modes = ['engine-floor', 'bare', 'untraced', 'full-noop', 'semantic-noop', 'full-otlp', 'semantic-otlp', 'sdk-floor'];
// Interleaved rounds (every mode once per round), the median per mode: drift in the machine's load
// then hits every mode alike instead of whichever ran during a noisy minute.
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));
const samples: Record<string, ModeResult[]> = {};
for (let round = 1; round <= rounds; round++) {
  for (const mode of modes) {
    process.stderr.write(`bench: round ${round}/${rounds} ${mode}\n`);
    (samples[mode] ??= []).push(await child<ModeResult>('bench/child.ts', [mode, receiver.url]));
  }
}
const results: Record<string, ModeResult> = {};
for (const mode of modes) {
  const sorted = [...samples[mode]!].sort((a, b) => a.usPerUnit - b.usPerUnit);
  results[mode] = sorted[Math.floor(sorted.length / 2)]!;
}
process.stderr.write('bench: throughput\n');
const throughput = await child<{
  paced: { rate: number; runs: number; droppedSpans: number; failedExports: number };
  unpaced: { runs: number; runsPerSecond: number; droppedSpans: number; failedExports: number };
}>('bench/load.ts', ['throughput', receiver.url]);
const memory: Record<string, { curve: { runs: number; heapMb: number }[] }> = {};
for (const mode of ['memory-traced', 'memory-paused']) {
  process.stderr.write(`bench: ${mode}\n`);
  memory[mode] = await child('bench/load.ts', [mode], ['--expose-gc']);
}
await receiver.close();

const r = (mode: string) => results[mode]!.usPerUnit;
const stages = results.untraced!.stages;
const perStageOverhead = (r('full-noop') - r('untraced')) / stages;
const floor = r('sdk-floor');
const rows: [string, string, string][] = [
  ['footprintjs engine floor, linear chart (per stage)', `${r('engine-floor').toFixed(1)} µs`, ''],
  ['bare footprintjs executor, agent chart (per run)', `${(r('bare') / 1000).toFixed(3)} ms`, `${(r('bare') / stages).toFixed(1)} µs/stage`],
  ['untraced runtime (per run)', `${(r('untraced') / 1000).toFixed(3)} ms`, `${(r('untraced') / r('bare')).toFixed(2)}x bare`],
  ['full stage spans, Batch + no-op exporter', `${(r('full-noop') / 1000).toFixed(3)} ms`, `${(r('full-noop') / r('untraced')).toFixed(2)}x untraced`],
  ['semantic spans only, Batch + no-op exporter', `${(r('semantic-noop') / 1000).toFixed(3)} ms`, `${(r('semantic-noop') / r('untraced')).toFixed(2)}x untraced`],
  ['full stage spans, OTLP/HTTP to 127.0.0.1', `${(r('full-otlp') / 1000).toFixed(3)} ms`, `${(r('full-otlp') / r('untraced')).toFixed(2)}x untraced`],
  ['semantic spans only, OTLP/HTTP to 127.0.0.1', `${(r('semantic-otlp') / 1000).toFixed(3)} ms`, `${(r('semantic-otlp') / r('untraced')).toFixed(2)}x untraced`],
  ['OTel SDK span creation floor (per span)', `${floor.toFixed(2)} µs`, ''],
  ['tracing overhead per stage (full)', `${perStageOverhead.toFixed(2)} µs`, `${(perStageOverhead / floor).toFixed(2)}x SDK floor`],
];
const targets: [string, number, number][] = [
  ['full stage tracing <= 1.5x untraced', r('full-noop') / r('untraced'), 1.5],
  ['semantic-only tracing <= 1.1x untraced', r('semantic-noop') / r('untraced'), 1.1],
  ['per-stage overhead <= 2x SDK span floor', perStageOverhead / floor, 2],
];
const memoryLine = (mode: string) => {
  const curve = memory[mode]!.curve;
  return `${mode}: ${curve.map((p) => `${p.runs / 1000}k=${p.heapMb.toFixed(1)}MB`).join(' ')}`;
};
const table = [
  `footprint-otel benchmark — ${new Date().toISOString()} — node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}`,
  `median of ${rounds} interleaved rounds per mode; reference turn: 3 iterations (two tool rounds, then the answer), two tools, ${stages} stages; spans per run: full ${results['full-noop']!.spansPerRun}, semantic ${results['semantic-noop']!.spansPerRun}`,
  '',
  ...rows.map(([name, value, ratio]) => `${name.padEnd(52)} ${value.padStart(12)}  ${ratio}`),
  '',
  'targets:',
  ...targets.map(([name, value, limit]) => `  ${value <= limit ? 'MET   ' : 'MISSED'} ${name}: ${value.toFixed(2)}`),
  '',
  `throughput (startTelemetry -> OTLP/HTTP receiver on 127.0.0.1, full spans, default queue 2048):`,
  `  paced ${throughput.paced.rate} runs/s: ${throughput.paced.runs} runs, ${throughput.paced.droppedSpans} spans dropped, ${throughput.paced.failedExports} failed exports`,
  `  unpaced (32 in flight): ${throughput.unpaced.runsPerSecond.toFixed(0)} runs/s, ${throughput.unpaced.droppedSpans} spans dropped (counted), ${throughput.unpaced.failedExports} failed exports; runs never waited on export`,
  '',
  'heap after GC (MB) over runs:',
  `  ${memoryLine('memory-traced')}`,
  `  ${memoryLine('memory-paused')}`,
];
console.log(table.join('\n'));
mkdirSync('bench/results', { recursive: true });
const stamp = quick ? 'quick' : 'latest';
writeFileSync(`bench/results/${stamp}.json`, JSON.stringify({ results, samples, throughput, memory, targets }, null, 2));
writeFileSync(`bench/results/${stamp}.txt`, `${table.join('\n')}\n`);
