/**
 * File mode keeps up at --concurrency 32, even with the SDK's default queue of 2048 spans: when the
 * queue is half full no new run starts until it drains (backpressure), so nothing is dropped — every
 * run leaves a whole trace and the account says 0 lost.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpans, type FileSpan } from '../../src/telemetry/index.js';
import { cli, parseSummary, tempDir, traceWholeness, type CliResult } from '../support/cli.js';

const RUNS = 300;

describe(`--runs ${RUNS} --concurrency 32 with OTEL_BSP_MAX_QUEUE_SIZE=2048`, () => {
  const temp = tempDir('c32');
  let result: CliResult;
  let spans: FileSpan[];
  beforeAll(async () => {
    result = await cli(['--runs', String(RUNS), '--concurrency', '32'], {
      cwd: temp.dir,
      env: { OTEL_BSP_MAX_QUEUE_SIZE: '2048', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512' },
    });
    spans = await readSpans(path.join(temp.dir, 'telemetry'));
  }, 300_000);
  afterAll(() => temp.remove());

  it('loses no span, and says so', () => {
    expect(result.code).toBe(0);
    expect(parseSummary(result.stdout).runs).toBe(RUNS);
    expect(result.stdout).toMatch(new RegExp(`^Telemetry: spans ${spans.length} exported, 0 lost; metric data points \\d+ exported, 0 lost$`, 'm'));
    expect(result.stderr).not.toMatch(/warning/);
  });

  it('leaves a whole trace for every run', () => {
    expect(traceWholeness(spans)).toEqual({ whole: expect.any(Array), broken: [] });
    expect(traceWholeness(spans).whole).toHaveLength(RUNS);
  });
});
