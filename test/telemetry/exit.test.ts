/**
 * The last batch survives the end of the process: a child (the compiled fixture) that is sent SIGTERM
 * with no handler of its own flushes and is then killed by that same signal; one with its own handler
 * keeps control of its exit; one that runs out of work flushes on beforeExit. In every case the
 * files hold the final span and the run's metrics.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSignalFiles, readSpans } from '../../src/telemetry/index.js';
import { compiled } from '../support/compiled.js';
import { pointsOf, type JsonMetricsRequest } from './otlpJson.js';
import { scratchFolders } from '../support/scratch.js';

const FIXTURE = compiled(path.join(import.meta.dirname, 'fixtures', 'exitChild.ts'));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
}

function runChild(mode: string, dir: string, signal?: NodeJS.Signals): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE, dir, mode], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (signal && stdout.includes('ready')) child.kill(signal);
    });
    child.on('error', reject);
    child.on('exit', (code, exitSignal) => resolve({ code, signal: exitSignal, stdout }));
  });
}

async function expectFinalBatch(dir: string): Promise<void> {
  const spans = await readSpans(dir);
  expect(spans.map((s) => s.name)).toContain('final-span');
  expect(spans[0]!.resource['service.name']).toBe('exit-child');
  const lines = readFileSync((await listSignalFiles(dir, 'metrics')).at(-1)!, 'utf8').trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1)!) as JsonMetricsRequest;
  expect(pointsOf(last, 'footprint.runs')).toEqual([
    { attributes: { 'footprint.runner.kind': 'agent', 'footprint.runner.id': 'child', 'footprint.run.outcome': 'ok' }, value: 1 },
  ]);
}

const tempDir = scratchFolders('fp-exit-');

describe('process exit', () => {
  it('SIGTERM with no app handler: flushes, then the process dies of SIGTERM', async () => {
    const dir = tempDir();
    const exit = await runChild('signal', dir, 'SIGTERM');
    expect(exit.signal).toBe('SIGTERM');
    await expectFinalBatch(dir);
  });

  it('SIGINT likewise', async () => {
    const dir = tempDir();
    expect((await runChild('signal', dir, 'SIGINT')).signal).toBe('SIGINT');
    await expectFinalBatch(dir);
  });

  it('SIGTERM with an app handler: the app decides how to exit', async () => {
    const dir = tempDir();
    const exit = await runChild('own-handler', dir, 'SIGTERM');
    expect(exit).toMatchObject({ code: 3, signal: null });
    expect(exit.stdout).toContain('app handled SIGTERM');
    await expectFinalBatch(dir);
  });

  it('running out of work: flushes on beforeExit and exits 0', async () => {
    const dir = tempDir();
    expect(await runChild('natural', dir)).toMatchObject({ code: 0, signal: null });
    await expectFinalBatch(dir);
  });
});
