/**
 * File-mode benchmark (npm run bench:files [runs]): what the demo's telemetry files cost and whether
 * anything is lost, measured the way a user runs it — `footprint-otel --runs N --concurrency C` in a
 * fresh folder, as a child process.
 *   1. the file span exporter alone: spans/s and MB/s serialized to OTLP JSON and written, in the
 *      demo's batches of 2,048 spans;
 *   2. the demo at concurrency 8, 32 and 64: runs/s, spans/s, spans lost (by the demo's own account,
 *      checked against the spans found in the files), peak RSS, wall time;
 *   3. exit time with a dead collector (a closed port) and one that never answers: from the start to
 *      the process's exit, and from "flushing telemetry" to the exit (bounded at 5 s by the demo).
 * Prints a report and writes it to bench/results/file-mode.txt.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BasicTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { fileSpanExporter } from '../src/telemetry/files/fileExporters.js';
import { readSpans } from '../src/telemetry/index.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin', 'footprint-otel.js');
const RUNS = Number(process.argv[2] ?? 1000);

interface DemoRun {
  code: number | null;
  ms: number;
  /** From the "flushing telemetry" notice to the exit. */
  flushMs: number;
  peakRssMb: number;
  stdout: string;
}

function demo(cwd: string, args: string[], env: Record<string, string> = {}): Promise<DemoRun> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(OTEL_|FOOTPRINT_)/.test(key)));
  const started = performance.now();
  let flushAt = 0;
  let peakKb = 0;
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const sample = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch {
      // the process has ended
    }
  }, 100);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (flushAt === 0 && chunk.includes('flushing telemetry')) flushAt = performance.now();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sample);
      const ended = performance.now();
      resolve({ code, ms: ended - started, flushMs: flushAt === 0 ? 0 : ended - flushAt, peakRssMb: peakKb / 1024, stdout });
    });
  });
}

/** The demo's own account: "Telemetry: spans X exported, Y lost ...". */
function account(stdout: string): { exported: number; lost: number; line: string } {
  const match = /^Telemetry: spans (\d+) exported, (\d+) lost.*$/m.exec(stdout);
  return { exported: Number(match?.[1] ?? NaN), lost: Number(match?.[2] ?? NaN), line: match?.[0] ?? '(no account printed)' };
}

async function exporterAlone(): Promise<string> {
  const provider = new BasicTracerProvider();
  const tracer = provider.getTracer('bench');
  const batch: ReadableSpan[] = Array.from({ length: 2048 }, (_, i) => {
    const span = tracer.startSpan(`stage ${i}`, {
      attributes: { 'footprint.stage.id': `stage-${i}`, 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 120, 'footprint.cost.usd': 0.000_41 },
    });
    span.addEvent('footprint.skill.hop', { 'footprint.skill.hop.to': 'billing', 'footprint.skill.hop.iteration': 2 });
    span.end();
    return span as unknown as ReadableSpan;
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'fp-bench-exporter-'));
  const exporter = fileSpanExporter({ directory: dir });
  const rounds = 40;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => exporter.export(batch, () => resolve()));
  await exporter.shutdown();
  const seconds = (performance.now() - started) / 1000;
  const bytes = readFileSync(exporter.files()[0]!).length;
  rmSync(dir, { recursive: true, force: true });
  const spans = rounds * batch.length;
  return `file span exporter alone: ${spans} spans in ${rounds} batches of 2048: ${(spans / seconds).toFixed(0)} spans/s, ${(bytes / 1024 / 1024 / seconds).toFixed(1)} MB/s (${(bytes / spans).toFixed(0)} bytes/span)`;
}

async function atConcurrency(concurrency: number): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), `fp-bench-c${concurrency}-`));
  try {
    const result = await demo(dir, ['--runs', String(RUNS), '--concurrency', String(concurrency)]);
    const { exported, lost } = account(result.stdout);
    const inFiles = (await readSpans(path.join(dir, 'telemetry'))).length;
    const runs = Number(/^runs: (\d+)/m.exec(result.stdout)?.[1]);
    const seconds = result.ms / 1000;
    return (
      `concurrency ${String(concurrency).padStart(2)}: ${runs} runs in ${seconds.toFixed(1)} s = ${(runs / seconds).toFixed(1)} runs/s, ` +
      `${(exported / seconds).toFixed(0)} spans/s; spans exported ${exported}, lost ${lost}, found in the files ${inFiles}; ` +
      `peak RSS ${result.peakRssMb.toFixed(0)} MB; exit ${result.code}`
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function exitWith(name: string, endpoint: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fp-bench-exit-'));
  try {
    const result = await demo(dir, [], { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    return `${name}: whole demo (12 runs) ${(result.ms / 1000).toFixed(1)} s, "flushing" to exit ${(result.flushMs / 1000).toFixed(1)} s, exit ${result.code}; ${account(result.stdout).line}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function listen(handler: (res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => req.resume().on('end', () => handler(res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const lines: string[] = [
  `file-mode benchmark, ${new Date().toISOString()}, node ${process.version}, ${cpus().length} cores, ${RUNS} runs per concurrency`,
  `command: npm run bench:files -- ${RUNS}`,
  '',
  await exporterAlone(),
  '',
];
for (const concurrency of [8, 32, 64]) {
  lines.push(await atConcurrency(concurrency));
  console.log(lines.at(-1));
}
lines.push('');
const closed = await listen(() => undefined);
const closedUrl = closed.url;
await new Promise((resolve) => closed.server.close(resolve));
lines.push(await exitWith('dead collector (closed port)', closedUrl));
const hanging = await listen(() => undefined);
hanging.server.keepAliveTimeout = 0;
lines.push(await exitWith('hanging collector (never answers)', hanging.url));
hanging.server.closeAllConnections();
hanging.server.close();

const report = `${lines.join('\n')}\n`;
writeFileSync(path.join(ROOT, 'bench', 'results', 'file-mode.txt'), report);
console.log(report);
