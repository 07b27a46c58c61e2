/**
 * Stopping the demo: the first SIGINT / SIGTERM starts no more runs, lets the runs in flight end (or
 * cancels them after a grace period), flushes telemetry within its bound, prints what was done and
 * what was lost, and exits 130 / 143; it says that a second signal exits at once, and a second one
 * does. Every run it reports done left a whole trace. `npm start` hands SIGTERM to the demo itself,
 * so no process is left behind.
 */
import { cpSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSpans } from '../../src/telemetry/index.js';
import { cli, parseSummary, ROOT, rootsByTrace, run, tempDir, traceWholeness, type CliResult } from '../support/cli.js';

/** The first progress line past the first tenth of the runs: the load is well under way. */
const UNDER_WAY = /\] [1-9]\d*\/3000 /;

function stopOnce(signal: NodeJS.Signals) {
  let sent = false;
  return ({ stderr }: { stderr: string }, child: { kill: (s: NodeJS.Signals) => boolean }) => {
    if (!sent && UNDER_WAY.test(stderr)) {
      sent = true;
      child.kill(signal);
    }
  };
}

describe('the first Ctrl-C', () => {
  const temp = tempDir('stop');
  afterAll(() => temp.remove());
  let result: CliResult;

  it('stops starting runs, flushes, reports what was done and lost, and exits 130', async () => {
    result = await cli(['--runs', '3000', '--concurrency', '8'], { cwd: temp.dir, onOutput: stopOnce('SIGINT') });
    expect(result.code).toBe(130);
    const stderr = result.stderr.split('\n').filter((line) => !line.startsWith('['));
    expect(stderr).toEqual([
      '',
      'footprint-otel: SIGINT: stopping. No new runs start; runs in flight get up to 5 s, then are cancelled; telemetry is flushed for up to 5 s; then a summary of what was done and what was lost. Press Ctrl-C again (or send SIGINT again) to exit at once.',
      `flushing telemetry to ${path.join(temp.dir, 'telemetry')}/, up to 5 s`,
      '',
    ]);
    const summary = parseSummary(result.stdout);
    expect(summary.runs).toBeLessThan(3000);
    expect(result.stdout).toContain(`stopped: ${summary.runs} of 3000 runs done, ${3000 - summary.runs} not started`);
    expect(result.stdout).toMatch(/^Telemetry: spans \d+ exported, 0 lost; metric data points \d+ exported, 0 lost$/m);
  }, 180_000);

  it('leaves a whole trace for every run it reports done', async () => {
    const spans = await readSpans(path.join(temp.dir, 'telemetry'));
    const { whole, broken } = traceWholeness(spans);
    expect(broken).toEqual([]);
    expect(whole).toHaveLength(parseSummary(result.stdout).runs);
    expect(rootsByTrace(spans).size).toBe(whole.length);
  });
});

describe('a second Ctrl-C', () => {
  const temp = tempDir('stop-twice');
  afterAll(() => temp.remove());

  it('exits at once with 130, saying so', async () => {
    let sent = 0;
    const result = await cli(['--runs', '3000', '--concurrency', '8'], {
      cwd: temp.dir,
      onOutput: ({ stderr }, child) => {
        if (sent === 0 && UNDER_WAY.test(stderr)) {
          sent++;
          child.kill('SIGINT');
        } else if (sent === 1 && stderr.includes('Press Ctrl-C again')) {
          sent++;
          child.kill('SIGINT');
        }
      },
    });
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('footprint-otel: second SIGINT: exiting now; telemetry not yet written or sent is lost.');
    expect(result.stdout).not.toContain('Telemetry:');
  }, 180_000);
});

describe('SIGTERM to npm start', () => {
  const temp = tempDir('npm-sigterm');
  afterAll(() => temp.remove());

  /** Processes whose working directory is the temp dir (the demo, if it outlived npm). */
  const processesIn = (dir: string) =>
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readlinkSync(`/proc/${pid}/cwd`) === dir;
        } catch {
          return false;
        }
      });

  it('reaches the demo: it winds down, reports, and leaves no process behind', async () => {
    cpSync(path.join(ROOT, 'package.json'), path.join(temp.dir, 'package.json'));
    for (const entry of ['src', 'node_modules', 'tsconfig.json']) symlinkSync(path.join(ROOT, entry), path.join(temp.dir, entry));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = await run(npm, ['start', '--', '--runs', '3000'], {
      cwd: temp.dir,
      env: { npm_config_update_notifier: 'false', npm_config_fund: 'false' },
      onOutput: stopOnce('SIGTERM'),
    });
    expect(result.stderr).toContain('footprint-otel: SIGTERM: stopping.');
    expect(result.stdout).toMatch(/^stopped: \d+ of 3000 runs done/m);
    expect(processesIn(temp.dir)).toEqual([]);
  }, 180_000);
});
