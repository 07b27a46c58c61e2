/**
 * `footprint-otel why` benchmark (npm run bench:why [runs]): the time `why` takes to answer on a
 * telemetry folder of 10,000 runs, as a ratio to `view` on the same folder (absolute times are noisy
 * on a shared machine; both read the folder streaming, so the ratio is what why adds).
 *   1. the demo writes 200 runs (`footprint-otel demo --runs 200`, a child process, real files);
 *   2. the folder is grown to `runs` runs (default 10,000) by copying those files with every trace,
 *      span and run id made new per copy (links and parents rewritten alike), one session per copy;
 *   3. in this process, alternately, 3 times each: `view` (the newest run), `why` (the newest run's
 *      answer), `why --run` (a run in the middle of the folder), `why --json` (the newest run).
 * Prints the medians and ratios and writes them to bench/results/why.txt.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { viewCommand } from '../src/cli/view.js';
import { whyCommand } from '../src/cli/why.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.argv[2] ?? 10_000);
const SEED_RUNS = 200;
const ROUNDS = 3;

function demo(cwd: string): Promise<void> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(OTEL_|FOOTPRINT_)/.test(key)));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'src/cli/main.ts'), 'demo', '--runs', String(SEED_RUNS), '--concurrency', '8'], { cwd, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`demo exited ${code}`))));
  });
}

/** Copy `copy` of a trace file: every id given a per-copy prefix, so each copy is runs of its own. */
function rewrite(text: string, copy: number): string {
  const tag = copy.toString(16).padStart(4, '0');
  return text
    .replace(/"(traceId|spanId|parentSpanId)":"([0-9a-f]{4})([0-9a-f]+)"/g, (_, key: string, _head: string, tail: string) => `"${key}":"${tag}${tail}"`)
    .replace(/"(run_[0-9a-z]{16})"/g, (_, id: string) => `"${id}_${tag}"`);
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'footprint-bench-why-'));
  try {
    await demo(work);
    const seedDir = path.join(work, 'telemetry');
    const seedFiles = readdirSync(seedDir).filter((name) => name.startsWith('traces-'));
    const folder = path.join(work, 'folder');
    mkdirSync(folder);
    const copies = Math.ceil(RUNS / SEED_RUNS);
    let bytes = 0;
    for (let copy = 0; copy < copies; copy++) {
      for (const name of seedFiles) {
        const text = rewrite(readFileSync(path.join(seedDir, name), 'utf8'), copy);
        bytes += text.length;
        // one session per copy, in copy order (the session's start time orders them)
        const session = `20260101T${String(copy).padStart(9, '0')}Z-1-${copy.toString(16)}`;
        writeFileSync(path.join(folder, name.replace(/^traces-.*-(\d{4,})\.jsonl$/, `traces-${session}-$1.jsonl`)), text);
      }
    }
    const middleRun = /"(run_[0-9a-z]{16}_[0-9a-f]{4})"/.exec(rewrite(readFileSync(path.join(seedDir, seedFiles[0]!), 'utf8'), Math.floor(copies / 2)))![1]!;
    const cases: [string, () => Promise<unknown>][] = [
      ['view (newest run)', () => viewCommand({ path: folder, trips: false, list: false })],
      ['why (newest run)', () => whyCommand({ path: folder, json: false })],
      [`why --run (a middle run)`, () => whyCommand({ path: folder, run: middleRun, json: false })],
      ['why --json (newest run)', () => whyCommand({ path: folder, json: true })],
    ];
    const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of cases) samples.get(name)!.push(await time(run));
    }
    const view = median(samples.get('view (newest run)')!);
    const lines = [
      `why benchmark: ${copies * SEED_RUNS} runs (${SEED_RUNS} demo runs copied ${copies} times), ${(bytes / 1024 / 1024).toFixed(0)} MiB of trace files; median of ${ROUNDS}, in one process`,
      ...[...samples].map(([name, values]) => `  ${name.padEnd(26)} ${median(values).toFixed(0).padStart(7)} ms   ${(median(values) / view).toFixed(2)} x view`),
    ];
    console.log(lines.join('\n'));
    mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(path.join(ROOT, 'bench/results/why.txt'), `${lines.join('\n')}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
