/**
 * What a consumer of the packed package gets: the tarball's size, the size of node_modules after
 * installing it into an empty ESM project, and the cold import time of `footprint-otel` and
 * `footprint-otel/telemetry` (a fresh node process per sample): the time of the import itself,
 * measured inside the process, and of the whole process from spawn to exit; the median of the samples.
 * Several packages are measured side by side, their import samples interleaved, so that a busy
 * machine slows them alike.
 *
 *   npx tsx bench/package.ts [--samples 9] [label=file.tgz[+tsx] ...]
 *
 * Without packages it measures `npm pack` of this repository (which builds dist/). A package marked
 * +tsx gets tsx installed beside it and is imported under `node --import tsx` (for a package that
 * ships TypeScript sources).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './measure.js';

const { values, positionals } = parseArgs({ options: { samples: { type: 'string', default: '9' } }, allowPositionals: true });
const samples = Number(values.samples);
const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'footprint-package-bench-'));
const SPECIFIERS = ['footprint-otel', 'footprint-otel/telemetry'];

interface Subject {
  label: string;
  tarball: string;
  tsx: boolean;
  project: string;
  times: Record<string, { inside: number[]; whole: number[] }>;
}

try {
  const subjects: Subject[] = (positionals.length > 0 ? positionals : [`current=${pack()}`]).map((spec, index) => {
    const [label, rest] = spec.split('=') as [string, string];
    const tsx = rest.endsWith('+tsx');
    const project = path.join(work, `consumer-${index}`);
    return { label, tarball: path.resolve(tsx ? rest.slice(0, -4) : rest), tsx, project, times: {} };
  });
  for (const subject of subjects) install(subject);
  for (let i = 0; i < samples; i++) {
    for (const subject of subjects) for (const specifier of SPECIFIERS) sample(subject, specifier);
  }
  for (const subject of subjects) report(subject);
} finally {
  rmSync(work, { recursive: true, force: true });
}

function pack(): string {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  return path.join(work, packed!.filename);
}

function install(subject: Subject): void {
  mkdirSync(subject.project);
  writeFileSync(path.join(subject.project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  const packages = [subject.tarball, ...(subject.tsx ? ['tsx'] : [])];
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], { cwd: subject.project, stdio: 'ignore' });
}

function sample(subject: Subject, specifier: string): void {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  const started = performance.now();
  const run = spawnSync(process.execPath, [...(subject.tsx ? ['--import', 'tsx'] : []), '--input-type=module', '-e', script], { cwd: subject.project, encoding: 'utf8' });
  const whole = performance.now() - started;
  if (run.status !== 0) throw new Error(`${subject.label}: importing ${specifier} failed: ${run.stderr}`);
  const times = (subject.times[specifier] ??= { inside: [], whole: [] });
  times.inside.push(Number(run.stdout.trim()));
  times.whole.push(whole);
}

function report(subject: Subject): void {
  const size = treeSize(path.join(subject.project, 'node_modules'));
  console.log(`${subject.label}${subject.tsx ? ' (imported under node --import tsx)' : ''}`);
  console.log(`  tarball                         ${kb(statSync(subject.tarball).size)}`);
  console.log(`  consumer node_modules           ${mb(size.bytes)}, ${size.packages} packages${subject.tsx ? ' (tsx is a dependency of this package)' : ''}`);
  for (const specifier of SPECIFIERS) {
    const times = subject.times[specifier]!;
    console.log(`  import ${specifier.padEnd(25)}${median(times.inside).toFixed(0).padStart(6)} ms import, ${median(times.whole).toFixed(0).padStart(6)} ms process`);
  }
}

/** File bytes under node_modules, and the packages (folders with a package.json right under node_modules or a scope). */
function treeSize(folder: string): { bytes: number; packages: number } {
  let bytes = 0;
  let packages = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      const stat = lstatSync(file);
      if (stat.isDirectory()) walk(file);
      else if (stat.isFile()) {
        bytes += stat.size;
        const parent = path.basename(path.dirname(dir));
        const grandparent = path.basename(path.dirname(path.dirname(dir)));
        if (entry === 'package.json' && (parent === 'node_modules' || (parent.startsWith('@') && grandparent === 'node_modules'))) packages++;
      }
    }
  };
  walk(folder);
  return { bytes, packages };
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
