/**
 * What a consumer of the packed package gets: the tarball's size, the size of node_modules after
 * installing it into an empty ESM project, and the cold import time of `footprint-otel` and
 * `footprint-otel/telemetry` (a fresh node process per sample; median of the samples): the time of
 * the import itself, measured inside the process, and of the whole process from spawn to exit.
 *
 *   npx tsx bench/package.ts [--tarball file.tgz] [--samples 9] [--loader tsx]
 *
 * Without --tarball it runs `npm pack` (which builds dist/). --loader tsx adds tsx to the project and
 * runs node with `--import tsx` (for measuring a package that ships TypeScript sources).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, lstatSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { tarball: { type: 'string' }, samples: { type: 'string', default: '9' }, loader: { type: 'string' } } });
const samples = Number(values.samples);
const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'footprint-package-bench-'));

try {
  const tarball = values.tarball ? path.resolve(values.tarball) : pack();
  const project = path.join(work, 'consumer');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...(values.loader ? [values.loader] : [])], { cwd: project, stdio: 'ignore' });
  const modules = path.join(project, 'node_modules');
  const size = treeSize(modules);
  console.log(`tarball                      ${kb(statSync(tarball).size)}  (${path.basename(tarball)})`);
  console.log(`consumer node_modules        ${mb(size.bytes)}  ${size.packages} packages (file bytes; npm install <tarball> into an empty project)`);
  for (const specifier of ['footprint-otel', 'footprint-otel/telemetry']) {
    const inside: number[] = [];
    const whole: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
      const run = spawnSync(process.execPath, [...(values.loader ? ['--import', values.loader] : []), '--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
      whole.push(performance.now() - started);
      if (run.status !== 0) throw new Error(`importing ${specifier} failed: ${run.stderr}`);
      inside.push(Number(run.stdout.trim()));
    }
    console.log(`import ${specifier.padEnd(25)} ${median(inside).toFixed(0)} ms import, ${median(whole).toFixed(0)} ms process (median of ${samples})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

function pack(): string {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  return path.join(work, packed!.filename);
}

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
        if (entry === 'package.json' && path.basename(path.dirname(dir)) === 'node_modules') packages++;
        else if (entry === 'package.json' && path.basename(path.dirname(path.dirname(dir))) === 'node_modules' && path.basename(path.dirname(dir)).startsWith('@')) packages++;
      }
    }
  };
  walk(folder);
  return { bytes, packages };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
