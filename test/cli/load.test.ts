/**
 * Load mode: `footprint-otel --runs 200 --concurrency 8` draws a progress bar on stderr and ends with
 * a summary that agrees with the telemetry it wrote — every run a trace, trips by kind and
 * escalations as span events, model calls and their cost on chat spans, and the same totals in the
 * last cumulative export of footprint.loop_guard.trips, footprint.skill.escalations, footprint.llm.cost.usd
 * and footprint.runs in the metrics files. No span may be lost on the way, and the summary says so.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpans, type FileSpan } from '../../src/telemetry/index.js';
import { cli, eventField, lastMetricPoints, metricTotal, parseSummary, rootsByTrace, tempDir, type CliResult, type MetricPoint, type PrintedSummary } from '../support/cli.js';

const RUNS = 200;

describe(`--runs ${RUNS} --concurrency 8`, () => {
  const temp = tempDir('load');
  let result: CliResult;
  let summary: PrintedSummary;
  let spans: FileSpan[];
  let points: MetricPoint[];

  beforeAll(async () => {
    result = await cli(['--runs', String(RUNS), '--concurrency', '8'], { cwd: temp.dir });
    summary = parseSummary(result.stdout);
    spans = await readSpans(path.join(temp.dir, 'telemetry'));
    points = await lastMetricPoints(path.join(temp.dir, 'telemetry'));
  }, 180_000);
  afterAll(() => temp.remove());

  it('completes every run and draws a progress bar on stderr, without telemetry warnings', () => {
    expect(result.code).toBe(0);
    expect(summary.runs).toBe(RUNS);
    expect(Object.values(summary.outcomes).reduce((a, b) => a + b, 0)).toBe(RUNS);
    const bars = result.stderr.split('\n').filter((line) => /^\[[#-]{30}\] \d+\/\d+ \$\d+\.\d{4}$/.test(line));
    expect(bars.length).toBeGreaterThanOrEqual(10);
    expect(bars.at(-1)).toMatch(new RegExp(`^\\[#{30}\\] ${RUNS}/${RUNS} \\$`));
    const done = bars.map((line) => Number(/\] (\d+)\//.exec(line)![1]));
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(result.stderr).not.toMatch(/warning|lost/);
    expect(result.stdout).toMatch(new RegExp(`^Telemetry: spans ${spans.length} exported, 0 lost; metric data points \\d+ exported, 0 lost$`, 'm'));
  });

  it('exported one trace per run, and every model call as a chat span', () => {
    expect(rootsByTrace(spans).size).toBe(RUNS);
    expect(spans.filter((s) => s.name.startsWith('chat ')).length).toBe(summary.llmCalls);
    expect(metricTotal(points, 'footprint.runs')).toBe(RUNS);
    // the self-metrics agree: every span went through the SDK's batch processor (none dropped at a
    // full queue) and was written by the file exporter
    expect(metricTotal(points, 'otel.sdk.processor.span.processed')).toBe(spans.length);
    expect(metricTotal(points, 'otel.sdk.processor.span.processed', { 'error.type': 'queue_full' })).toBe(0);
    expect(metricTotal(points, 'otel.sdk.exporter.span.exported')).toBe(spans.length);
  });

  it('counts the trips by kind that the traces and the metrics hold', () => {
    const events = spans.flatMap((s) => s.events.filter((e) => e.name === 'footprint.loop_guard.trip'));
    const fromTraces: Record<string, number> = { ping_pong: 0, rejected_cap: 0 };
    for (const e of events) fromTraces[String(eventField(e, 'kind'))] = (fromTraces[String(eventField(e, 'kind'))] ?? 0) + 1;
    expect(summary.trips.ping_pong + summary.trips.rejected_cap).toBeGreaterThan(0);
    expect(fromTraces).toEqual(summary.trips);
    for (const kind of ['ping_pong', 'rejected_cap']) {
      expect(metricTotal(points, 'footprint.loop_guard.trips', { 'footprint.trip.kind': kind })).toBe(summary.trips[kind]);
    }
    // the run span carries the kinds of its trips (footprint.trip.kinds), the tag Jaeger searches
    const kindsByTrace = new Map<string, Set<string>>();
    for (const span of spans) {
      for (const e of span.events.filter((ev) => ev.name === 'footprint.loop_guard.trip')) {
        kindsByTrace.set(span.traceId, (kindsByTrace.get(span.traceId) ?? new Set()).add(String(eventField(e, 'kind'))));
      }
    }
    for (const [traceId, root] of rootsByTrace(spans)) {
      const kinds = [...(kindsByTrace.get(traceId) ?? [])].sort().join(',');
      expect(root.attributes['footprint.trip.kinds'] ?? '').toBe(kinds);
    }
  });

  it('counts the escalations that the traces and the metrics hold', () => {
    const events = spans.flatMap((s) => s.events.filter((e) => e.name === 'footprint.skill.escalated'));
    expect(summary.escalations).toBeGreaterThan(0);
    expect(events.length).toBe(summary.escalations);
    expect(metricTotal(points, 'footprint.skill.escalations')).toBe(summary.escalations);
    expect(metricTotal(points, 'footprint.skill.rejections')).toBe(summary.rejections);
  });

  it('totals the cost that the chat spans and footprint.llm.cost.usd hold', () => {
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    // a call that failed (the tech provider's scripted outage) has no cost on its span
    expect(chats.filter((s) => s.attributes['footprint.cost.usd'] === undefined).map((s) => s.attributes['error.type'])).toEqual(
      chats.filter((s) => s.attributes['error.type'] !== undefined).map(() => '503'),
    );
    const fromSpans = chats.reduce((sum, s) => sum + ((s.attributes['footprint.cost.usd'] as number | undefined) ?? 0), 0);
    const fromMetrics = metricTotal(points, 'footprint.llm.cost.usd');
    // the summary prints six decimals
    expect(Math.abs(fromSpans - summary.costUsd)).toBeLessThanOrEqual(5e-7 + 1e-9);
    expect(Math.abs(fromMetrics - summary.costUsd)).toBeLessThanOrEqual(5e-7 + 1e-9);
    const runSpans = [...rootsByTrace(spans).values()].reduce((sum, s) => sum + (s.attributes['footprint.cost.usd'] as number), 0);
    expect(Math.abs(runSpans - summary.costUsd)).toBeLessThanOrEqual(5e-7 + 1e-9);
  });
});
