/**
 * `demo --runaway`: the billing agent runs away inside its iteration cap. Against the same seed
 * without the flag, every run ends the same way and no loop guard trips more, while each billing
 * invocation makes 24 tool calls in 4 model calls instead of 1 in 2 (read back from the telemetry
 * files the demo wrote); on real models the flag is refused before anything starts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNAWAY_LOOKUPS_PER_CALL, RUNAWAY_STEPS } from '../../src/cli/desk/brains.js';
import { cli, lastMetricPoints, metricTotal, parseSummary, tempDir, type CliResult, type PrintedSummary } from '../support/cli.js';

const ARGS = ['--runs', '20', '--seed', '5', '--no-color'];
const clean = tempDir('runaway-clean');
const runaway = tempDir('runaway-on');
afterAll(() => {
  clean.remove();
  runaway.remove();
});

describe('demo --runaway', () => {
  let results: Record<'clean' | 'runaway', { run: CliResult; summary: PrintedSummary }>;
  beforeAll(async () => {
    const [a, b] = await Promise.all([cli(ARGS, { cwd: clean.dir }), cli([...ARGS, '--runaway'], { cwd: runaway.dir })]);
    results = { clean: { run: a, summary: parseSummary(a.stdout) }, runaway: { run: b, summary: parseSummary(b.stdout) } };
  }, 120_000);

  it('ends every run as without it, and trips no loop guard more', () => {
    expect(results.runaway.run.code).toBe(0);
    expect(results.clean.run.code).toBe(0);
    expect(results.runaway.summary.outcomes).toEqual(results.clean.summary.outcomes);
    expect(results.runaway.summary.trips).toEqual(results.clean.summary.trips);
  });

  it('makes each billing invocation call its tool 24 times in 4 model calls, inside the cap of 4', async () => {
    const perInvocation = async (dir: string) => {
      const points = await lastMetricPoints(path.join(dir, 'telemetry'));
      const invocations = metricTotal(points, 'gen_ai.invoke_agent.tool_calls', { 'footprint.agent': 'billing' });
      return {
        invocations,
        lookups: metricTotal(points, 'gen_ai.execute_tool.duration', { 'gen_ai.tool.name': 'lookup_invoice' }) / invocations,
        modelCalls: metricTotal(points, 'gen_ai.client.inference.duration', { 'footprint.agent': 'billing' }) / invocations,
        stoppedEarly: metricTotal(points, 'footprint.runs', { 'footprint.run.outcome': 'stopped_early' }),
      };
    };
    const before = await perInvocation(clean.dir);
    const after = await perInvocation(runaway.dir);
    expect(before.invocations).toBeGreaterThanOrEqual(3);
    expect(after).toEqual({ invocations: before.invocations, lookups: RUNAWAY_LOOKUPS_PER_CALL * RUNAWAY_STEPS, modelCalls: RUNAWAY_STEPS + 1, stoppedEarly: before.stoppedEarly });
    expect([before.lookups, before.modelCalls]).toEqual([1, 2]);
  });
});

describe('demo --runaway on real models', () => {
  const temp = tempDir('runaway-real');
  afterAll(() => temp.remove());

  it('is refused in one line, exit 1, before any telemetry starts', async () => {
    const result = await cli(['--runaway', '--runs', '2'], { cwd: temp.dir, env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd()).toBe('footprint-otel: --runaway runs on the scripted models only: unset OPENAI_API_KEY, OPENAI_BASE_URL and ANTHROPIC_API_KEY');
    expect(existsSync(path.join(temp.dir, 'telemetry'))).toBe(false);
  });
});
