/**
 * Soak test (run by .ci/run, bounded in time; not part of `npm test`): two demo processes write into
 * one telemetry folder at once while a third, started beside them, is killed with SIGKILL mid-load.
 * Then every line of every telemetry file must parse (only the killed process's files may end in a
 * torn line), the two finished processes must have left a whole trace for every run they report, and
 * every trace of the killed one that has its root span must be whole too. `view --list` must read the
 * folder. Exit 0 when all holds; otherwise each failure on stderr and exit 1.
 *
 *   node --import tsx test/reliability/soak.ts [runs per process, default 800]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readLines } from '../../src/telemetry/files/lines.js';
import { readSpans, type FileSpan } from '../../src/telemetry/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'footprint-otel.js');
const RUNS = Number(process.argv[2] ?? 800);
const DEADLINE_MS = 15 * 60_000;

interface Finished {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function demo(cwd: string, args: string[], onStderr?: (stderr: string, child: ChildProcess) => void): { pid: number; done: Promise<Finished> } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(OTEL_|FOOTPRINT_)/.test(key)));
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    onStderr?.(stderr, child);
  });
  const done = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ pid: child.pid!, code, signal, stdout, stderr }));
  });
  return { pid: child.pid!, done };
}

/** Traces with a root span, those of them not whole (a span whose parent is missing), and traces without a root. */
function wholeness(spans: FileSpan[]): { rooted: number; brokenRooted: string[]; fragments: number } {
  const byTrace = new Map<string, FileSpan[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceId) ?? [];
    list.push(span);
    byTrace.set(span.traceId, list);
  }
  let rooted = 0;
  let fragments = 0;
  const brokenRooted: string[] = [];
  for (const [traceId, list] of byTrace) {
    if (!list.some((s) => s.parentSpanId === undefined)) {
      fragments++;
      continue;
    }
    rooted++;
    const ids = new Set(list.map((s) => s.spanId));
    if (list.some((s) => s.parentSpanId !== undefined && !ids.has(s.parentSpanId))) brokenRooted.push(traceId);
  }
  return { rooted, brokenRooted, fragments };
}

async function soak(dir: string): Promise<string[]> {
  const failures: string[] = [];
  const a = demo(dir, ['--runs', String(RUNS), '--concurrency', '8']);
  const b = demo(dir, ['--runs', String(RUNS), '--concurrency', '8', '--seed', '7']);
  let killed = false;
  const c = demo(dir, ['--runs', String(RUNS * 10), '--concurrency', '8', '--seed', '9'], (stderr, child) => {
    // kill it a tenth of the way in, while it runs and writes flat out
    if (!killed && /\] \d+\/\d+ .*\n/.test(stderr) && [...stderr.matchAll(/\] (\d+)\/(\d+) /g)].some(([, n, of]) => Number(n) >= Number(of) / 10)) {
      killed = true;
      child.kill('SIGKILL');
    }
  });
  const [doneA, doneB, doneC] = await Promise.all([a.done, b.done, c.done]);
  if (doneC.signal !== 'SIGKILL') failures.push(`the third process was not killed (exit ${doneC.code}, ${doneC.signal})`);
  for (const done of [doneA, doneB]) {
    if (done.code !== 0) failures.push(`process ${done.pid} exited ${done.code}: ${done.stderr.slice(-500)}`);
    if (/warning/.test(done.stderr)) failures.push(`process ${done.pid} warned: ${done.stderr.split('\n').filter((l) => l.includes('warning')).join(' | ')}`);
  }

  const folder = path.join(dir, 'telemetry');
  const files = readdirSync(folder).sort();
  const ownedBy = (pid: number) => files.filter((name) => name.split('-')[2] === String(pid)).map((name) => path.join(folder, name));
  let lines = 0;
  for (const name of files) {
    const file = path.join(folder, name);
    const killedWriter = name.split('-')[2] === String(doneC.pid);
    for await (const line of readLines(file)) {
      if (line.kind === 'torn' && killedWriter) continue;
      if (line.kind !== 'line') {
        failures.push(`${file}:${line.number}: ${line.kind}`);
        continue;
      }
      lines++;
      try {
        JSON.parse(line.text);
      } catch (error) {
        failures.push(`${file}:${line.number}: does not parse: ${(error as Error).message}`);
      }
    }
  }

  for (const done of [doneA, doneB]) {
    const runs = Number(/^runs: (\d+)/m.exec(done.stdout)?.[1]);
    const traceFiles = ownedBy(done.pid).filter((file) => path.basename(file).startsWith('traces-'));
    const spans = (await Promise.all(traceFiles.map((file) => readSpans(file)))).flat();
    const { rooted, brokenRooted, fragments } = wholeness(spans);
    if (rooted !== runs || runs !== RUNS) failures.push(`process ${done.pid}: ${runs} runs reported, ${rooted} rooted traces written, ${RUNS} expected`);
    if (brokenRooted.length > 0) failures.push(`process ${done.pid}: ${brokenRooted.length} run traces are not whole`);
    if (fragments !== 0) failures.push(`process ${done.pid}: ${fragments} trace fragments in a finished process's files`);
  }
  const killedSpans = (
    await Promise.all(ownedBy(doneC.pid).filter((file) => path.basename(file).startsWith('traces-')).map((file) => readSpans(file)))
  ).flat();
  const killedTraces = wholeness(killedSpans);
  if (killedTraces.brokenRooted.length > 0) failures.push(`killed process: ${killedTraces.brokenRooted.length} traces with a root are not whole`);

  const list = await demo(dir, ['view', folder, '--list']).done;
  if (list.code !== 0) failures.push(`view --list exited ${list.code}: ${list.stderr}`);
  const listed = list.stdout.trimEnd().split('\n').filter((line) => !line.includes('(fragment')).length;
  console.log(
    `soak: ${files.length} files, ${lines} lines parse; runs ${RUNS} + ${RUNS} whole; killed process left ${killedTraces.rooted} whole runs; view lists ${listed} runs`,
  );
  return failures;
}

const dir = mkdtempSync(path.join(tmpdir(), 'footprint-soak-'));
const deadline = setTimeout(() => {
  console.error(`soak: not done within ${DEADLINE_MS / 60_000} min`);
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();
const failures = await soak(dir);
clearTimeout(deadline);
rmSync(dir, { recursive: true, force: true });
for (const failure of failures) console.error(`soak: FAILED: ${failure}`);
process.exit(failures.length === 0 ? 0 : 1);
