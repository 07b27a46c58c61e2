/**
 * Where a turn's time goes: runs one benchmark mode (default full-noop, i.e. full detail with a
 * BatchSpanProcessor and a no-op exporter) under `node --cpu-prof`, then sums each function's SELF
 * time from the profile and says whose code it is: ours (src/<folder>), footprintjs, the OTel SDK/API,
 * Node, the garbage collector, or tsx (start-up compilation, to be discounted).
 *
 *   npx tsx bench/profile.ts before [mode ...]   ->  bench/results/profile-before.txt
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { prepareMeasuredCode } from './code.js';
import { frameFile, readCpuProfile, type CpuProfile } from './cpuProfile.js';

const [label = 'latest', ...requested] = process.argv.slice(2);
const modes = requested.length > 0 ? requested : ['full-noop', 'untraced'];
const TOP = 30;
const root = process.cwd();

function owner(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : 'node (native)';
  if (url.includes('/node_modules/footprintjs/')) return 'footprintjs';
  if (url.includes('/node_modules/@opentelemetry/')) return 'otel sdk/api';
  if (url.includes('/node_modules/tsx/') || url.includes('/node_modules/esbuild/')) return 'tsx (start-up)';
  if (url.startsWith('node:')) return 'node';
  const inRepo = url.replace(/^file:\/\//, '').replace(`${root}/`, '');
  const parts = inRepo.split('/');
  if (parts[0] === 'src' || parts[0] === 'dist') return `ours: src/${parts[1]}`;
  if (parts[0] === 'bench') return 'bench harness';
  if (url.includes('/node_modules/')) return `dep: ${url.split('/node_modules/')[1]!.split('/')[0]}`;
  return 'other';
}

function summarise(profile: CpuProfile): string[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, { us: number; owner: string }>();
  const byOwner = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((nodeId, i) => {
    const node = byNode.get(nodeId)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const who = owner(url, functionName);
    if (who === '(idle)') return;
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const file = frameFile(url);
    const key = `${functionName || '(anonymous)'}  ${file ? `${file}:${lineNumber + 1}` : ''}`;
    const entry = selfUs.get(key) ?? { us: 0, owner: who };
    entry.us += us;
    selfUs.set(key, entry);
    byOwner.set(who, (byOwner.get(who) ?? 0) + us);
  });
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
  return [
    `busy time sampled: ${(total / 1000).toFixed(0)} ms (idle left out)`,
    'self time by owner:',
    ...[...byOwner].sort((a, b) => b[1] - a[1]).map(([who, us]) => `  ${pct(us)}  ${who}`),
    `top ${TOP} functions by self time:`,
    ...[...selfUs]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, TOP)
      .map(([key, e]) => `  ${pct(e.us)}  ${e.owner.padEnd(18)} ${key}`),
  ];
}

const run = promisify(execFile);
const code = await prepareMeasuredCode();
const env = { ...process.env, BENCH_WARMUP: '400', BENCH_REPEATS: '5', BENCH_RUNS: '1000' };
const out: string[] = [
  `footprint-otel profile "${label}" — ${new Date().toISOString()} — node ${process.version}`,
  `each mode: node --cpu-prof --import tsx ${code.flags.join(' ')} bench/child.ts <mode> (code: ${code.label}), ${env.BENCH_WARMUP} warm-up + ${env.BENCH_REPEATS} x ${env.BENCH_RUNS} turns`,
];
for (const mode of modes) {
  const dir = mkdtempSync(join(tmpdir(), 'fp-prof-'));
  process.stderr.write(`profile: ${mode}\n`);
  const { stdout } = await run(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '--import', 'tsx', ...code.flags, 'bench/child.ts', mode], { env, maxBuffer: 1 << 24 });
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  const profile = readCpuProfile(join(dir, file));
  rmSync(dir, { recursive: true, force: true });
  const measured = JSON.parse(stdout.trim().split('\n').at(-1)!) as { usPerUnit: number; stages: number };
  out.push('', `== ${mode}: ${(measured.usPerUnit / 1000).toFixed(3)} ms per turn while profiled, ${measured.stages} stages`, ...summarise(profile));
}
console.log(out.join('\n'));
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/profile-${label}.txt`, `${out.join('\n')}\n`);
