/**
 * `footprint-otel` (the demo, what `npm start` runs) as a user runs it: in its own working directory
 * it prints the waterfall of one run and a summary and leaves its own trace and metrics files under
 * ./telemetry; the printed waterfall is the exported span tree of the trace it names, and the summary
 * accounts for every span and data point (all exported).
 * `--ticket` runs one ticket and prints its answer, and shows that run even when the trace file
 * already holds earlier runs. With OTEL_SDK_DISABLED=true it still runs, and writes nothing.
 */
import { cpSync, existsSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpans, type FileSpan } from '../../src/telemetry/index.js';
import {
  cli,
  expectedWaterfall,
  parseSummary,
  parseWaterfall,
  ROOT,
  rootsByTrace,
  run,
  tempDir,
  waterfallBlock,
  type CliResult,
} from '../support/cli.js';

const DEMO_HEADER = /^Trace ([0-9a-f]{32}): /;
const SESSION_FILE = /^(traces|metrics)-\d{8}T\d{9}Z-\d+-[0-9a-f]{4}-\d{4}\.jsonl$/;
const flushNotice = (dir: string) => `flushing telemetry to ${path.join(dir, 'telemetry')}/, up to 5 s\n`;
const telemetryFiles = (dir: string) => readdirSync(path.join(dir, 'telemetry')).sort();

describe('the default demo', () => {
  const temp = tempDir('demo');
  let result: CliResult;
  let spans: FileSpan[];

  beforeAll(async () => {
    result = await cli([], { cwd: temp.dir });
    spans = await readSpans(path.join(temp.dir, 'telemetry'));
  }, 120_000);
  afterAll(() => temp.remove());

  it('exits 0 with the waterfall, the summary and where the telemetry went; stderr only says it flushed', () => {
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(flushNotice(temp.dir));
    expect(result.stdout).toMatch(DEMO_HEADER);
    expect(result.stdout).toContain('Support desk (scripted models, seed 42):');
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 12, outcomes: { ok: 12 } });
    expect(result.stdout).toMatch(new RegExp(`^Telemetry: spans ${spans.length} exported, 0 lost; metric data points \\d+ exported, 0 lost$`, 'm'));
    expect(result.stdout).toContain(`  written to ${path.join(temp.dir, 'telemetry')}/ (this run: 1 trace file(s), 1 metric file(s))`);
    for (const file of telemetryFiles(temp.dir)) expect(result.stdout).toContain(`    ${path.join(temp.dir, 'telemetry', file)}\n`);
  });

  it('leaves one trace file and one metrics file of its own under ./telemetry of its working directory', () => {
    expect(telemetryFiles(temp.dir)).toEqual([expect.stringMatching(SESSION_FILE), expect.stringMatching(SESSION_FILE)]);
    expect(telemetryFiles(temp.dir).map((f) => f.split('-')[0])).toEqual(['metrics', 'traces']);
    expect(rootsByTrace(spans).size).toBe(12);
  });

  it('prints the exported span tree of the trace it names, with the shown events', () => {
    const { traceId, lines } = waterfallBlock(result.stdout, DEMO_HEADER);
    const expected = expectedWaterfall(spans, traceId);
    expect(expected.filter((l) => l.kind === 'span').length).toBe(spans.filter((s) => s.traceId === traceId).length);
    expect(parseWaterfall(lines)).toEqual(expected);
  });

  it('names a run that tripped a loop guard, and shows the trip', () => {
    const { traceId, lines } = waterfallBlock(result.stdout, DEMO_HEADER);
    const root = rootsByTrace(spans).get(traceId)!;
    expect(root.name).toBe('invoke_workflow desk');
    expect(root.attributes['footprint.trip.kinds']).toMatch(/ping_pong|rejected_cap/);
    expect(result.stdout).toContain(`a run that tripped a loop guard (${root.attributes['footprint.trip.kinds']})`);
    const tripLine = lines.find((l) => l.includes('• loop_guard.trip '));
    expect(tripLine).toContain(`kind=${String(root.attributes['footprint.trip.kinds']).split(',')[0]}`);
  });
});

describe('--ticket', () => {
  const temp = tempDir('ticket');
  afterAll(() => temp.remove());

  it('runs that one ticket and prints its answer', async () => {
    const result = await cli(['--ticket', 'My invoice INV-1234 was charged twice'], { cwd: temp.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(flushNotice(temp.dir));
    expect(result.stdout).toMatch(/^answer: .*INV-1234.*$/m);
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 1, outcomes: { ok: 1 } });
    const spans = await readSpans(path.join(temp.dir, 'telemetry'));
    const roots = [...rootsByTrace(spans).values()];
    expect(roots).toHaveLength(1);
    expect(roots[0]!.attributes['gen_ai.conversation.id']).toBe('T-CUSTOM');
    expect(roots[0]!.attributes['footprint.skill.path']).toMatch(/^billing/);
    expect(waterfallBlock(result.stdout, DEMO_HEADER).traceId).toBe(roots[0]!.traceId);
  }, 60_000);

  it("shows the ticket's own run when the telemetry folder already holds earlier runs", async () => {
    // the directory already holds the run of the test above; add a dozen more with trips in them
    expect((await cli([], { cwd: temp.dir })).code).toBe(0);
    const result = await cli(['--ticket', 'The API returns 502 errors since this morning'], { cwd: temp.dir });
    expect(result.code).toBe(0);
    const spans = await readSpans(path.join(temp.dir, 'telemetry'));
    const roots = rootsByTrace(spans);
    expect(roots.size).toBe(14);
    // three invocations, three sessions, each with a trace file and a metrics file
    expect(telemetryFiles(temp.dir)).toHaveLength(6);
    const shown = roots.get(waterfallBlock(result.stdout, DEMO_HEADER).traceId)!;
    const latest = [...roots.values()].sort((a, b) => a.startMs - b.startMs).at(-1)!;
    expect(shown.attributes['gen_ai.conversation.id']).toBe('T-CUSTOM');
    expect(shown.spanId).toBe(latest.spanId);
    expect(parseSummary(result.stdout).runs).toBe(1);
  }, 120_000);
});

describe('OTEL_SDK_DISABLED=true', () => {
  const temp = tempDir('disabled');
  afterAll(() => temp.remove());

  it('runs the demo without telemetry: the summary, no waterfall, no files', async () => {
    const result = await cli([], { cwd: temp.dir, env: { OTEL_SDK_DISABLED: 'true' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('(telemetry is disabled, so there is no trace to show)');
    expect(result.stdout).toContain('Telemetry is disabled (OTEL_SDK_DISABLED=true).');
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 12, outcomes: { ok: 12 } });
    expect(existsSync(path.join(temp.dir, 'telemetry'))).toBe(false);
  }, 60_000);
});

describe('npm start', () => {
  const temp = tempDir('npm-start');
  afterAll(() => temp.remove());

  it('runs the demo from the package, writing ./telemetry where it runs', async () => {
    // The package as npm sees it, in a directory of its own: the real package.json (and so the real
    // start script), the sources and dependencies linked in.
    cpSync(path.join(ROOT, 'package.json'), path.join(temp.dir, 'package.json'));
    for (const entry of ['src', 'node_modules', 'tsconfig.json']) symlinkSync(path.join(ROOT, entry), path.join(temp.dir, entry));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = await run(npm, ['start'], { cwd: temp.dir, env: { npm_config_update_notifier: 'false', npm_config_fund: 'false' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('exec node --import tsx src/cli/main.ts demo');
    expect(result.stdout).toMatch(new RegExp(DEMO_HEADER.source, 'm'));
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 12, outcomes: { ok: 12 } });
    const spans = await readSpans(path.join(temp.dir, 'telemetry'));
    expect(rootsByTrace(spans).size).toBe(12);
    expect(telemetryFiles(temp.dir).map((f) => f.split('-')[0])).toEqual(['metrics', 'traces']);
  }, 120_000);
});
