/**
 * `footprint-otel view` on the files a demo run left: the latest run (given the directory), the
 * latest run with a loop-guard trip (given the trace file, --trips), a run by trace id or id prefix
 * (--trace), and the list of stored runs (--list). A file with nothing usable in it, a directory
 * without trace files, and an unknown trace id are reported in one line with exit code 1.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpans, type FileSpan } from '../../src/telemetry/index.js';
import { cli, expectedWaterfall, parseWaterfall, rootsByTrace, tempDir, waterfallBlock } from '../support/cli.js';

const VIEW_HEADER = /^trace ([0-9a-f]{32}) \((\d+) spans\) from (.+)$/;

describe('view', () => {
  const temp = tempDir('view');
  const dir = path.join(temp.dir, 'telemetry');
  let file: string;
  let spans: FileSpan[];
  /** Run roots in start order. */
  let roots: FileSpan[];

  beforeAll(async () => {
    const demo = await cli([], { cwd: temp.dir });
    expect(demo.code).toBe(0);
    file = path.join(dir, readdirSync(dir).find((name) => name.startsWith('traces-'))!);
    spans = await readSpans(file);
    roots = [...rootsByTrace(spans).values()].sort((a, b) => a.startMs - b.startMs);
  }, 120_000);
  afterAll(() => temp.remove());

  /** Runs view and checks the waterfall it prints against the stored span tree of the trace it names. */
  async function viewOf(args: string[], from = dir): Promise<{ traceId: string; lines: string[] }> {
    const result = await cli(['view', ...args], { cwd: temp.dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const block = waterfallBlock(result.stdout, VIEW_HEADER);
    const header = VIEW_HEADER.exec(result.stdout.split('\n')[0]!)!;
    expect(Number(header[2])).toBe(spans.filter((s) => s.traceId === block.traceId).length);
    expect(header[3]).toBe(from);
    expect(parseWaterfall(block.lines)).toEqual(expectedWaterfall(spans, block.traceId));
    return block;
  }

  it('<dir> shows the latest run', async () => {
    expect((await viewOf([dir])).traceId).toBe(roots.at(-1)!.traceId);
  });

  it('with no path, reads ./telemetry: the latest run', async () => {
    expect((await viewOf([], 'telemetry')).traceId).toBe(roots.at(-1)!.traceId);
  });

  it('<file> --trips shows the latest run that tripped a loop guard', async () => {
    const tripped = roots.filter((r) => r.attributes['footprint.trip.kinds']);
    expect(tripped.map((r) => r.attributes['footprint.trip.kinds'])).toEqual(['ping_pong', 'ping_pong', 'rejected_cap', 'rejected_cap']);
    const { traceId, lines } = await viewOf([file, '--trips'], file);
    expect(traceId).toBe(tripped.at(-1)!.traceId);
    expect(lines.some((line) => line.includes('• loop_guard.trip '))).toBe(true);
  });

  it('<dir> --trace <id> shows that run, by full id or a prefix of one', async () => {
    const first = roots[0]!.traceId;
    expect((await viewOf([dir, '--trace', first])).traceId).toBe(first);
    expect((await viewOf([dir, '--trace', first.slice(0, 8)])).traceId).toBe(first);
  });

  it('<dir> --list lists every stored run in start order, with its outcome and trips', async () => {
    const result = await cli(['view', dir, '--list'], { cwd: temp.dir });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(roots.map((r) => r.traceId));
    lines.forEach((line, i) => {
      const root = roots[i]!;
      expect(line).toContain(new Date(root.startMs).toISOString());
      expect(line).toContain(root.name);
      expect(line).toContain(` ${String(root.attributes['footprint.run.outcome'])}`);
      const trips = root.attributes['footprint.trip.kinds'];
      if (trips) expect(line).toMatch(new RegExp(`trips=${trips}$`));
      else expect(line).not.toContain('trips=');
    });
  });

  it('reports an unknown trace id in one line, exit code 1', async () => {
    const result = await cli(['view', dir, '--trace', 'ffffffffffff'], { cwd: temp.dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe(`footprint-otel: no run with trace id ffffffffffff in ${dir}`);
  });

  it('reports a file that is not OTLP JSON in one line, without a stack trace, exit code 1', async () => {
    const bad = path.join(temp.dir, 'bad.jsonl');
    writeFileSync(bad, 'this is not json\n');
    const result = await cli(['view', bad], { cwd: temp.dir });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(new RegExp(`^footprint-otel: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1: not OTLP JSON`));
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('reports a directory without trace files in one line, exit code 1', async () => {
    const result = await cli(['view', temp.dir], { cwd: temp.dir });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`footprint-otel: no trace files (traces*.jsonl) in ${temp.dir}; the demo writes them to ./telemetry/`);
  });
});
