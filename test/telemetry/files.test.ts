/**
 * The embedded default: with no endpoint, startTelemetry writes OTLP-JSON lines to files of its own
 * (traces-<session>-0001.jsonl, metrics-<session>-0001.jsonl), and readSpans turns them back into the
 * span tree that was recorded — ids, parents, names, kinds, times, typed attributes, events and
 * status — across async boundaries (the AsyncLocalStorage context manager). A traced agent run lands
 * as one connected trace, and a trace file that cannot be written shows up, span by span, in the
 * exported otel.sdk.exporter.span.exported{error.type="write_failed"}.
 */
import { SpanKind, SpanStatusCode, trace, type SpanContext } from '@opentelemetry/api';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, scripted } from '../../src/index.js';
import { registeredInstruments } from '../../src/runtime/run/index.js';
import { listSignalFiles, readSpans, startTelemetry, TelemetryAlreadyStartedError, type TelemetryHandle } from '../../src/telemetry/index.js';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { fileSpanExporter } from '../../src/telemetry/files/fileExporters.js';
import { guardSpanExporter } from '../../src/telemetry/guardedExporters.js';
import { ExportHealth } from '../../src/telemetry/health.js';
import { pointsOf, type JsonMetricsRequest } from './otlpJson.js';
import { scratchFolders } from '../support/scratch.js';

const scratch = scratchFolders('fp-files-');

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function start(dir = scratch()): { telemetry: TelemetryHandle; dir: string } {
  const telemetry = startTelemetry({ fileDirectory: dir, serviceName: 'files-test', metricExportIntervalMs: 600_000, handleExit: false });
  cleanups.push(() => telemetry.shutdown());
  return { telemetry, dir };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The last line of the handle's newest metrics file: the latest cumulative export. */
function lastMetrics(telemetry: TelemetryHandle): JsonMetricsRequest {
  const lines = readFileSync(telemetry.files().metrics.at(-1)!, 'utf8').trimEnd().split('\n');
  return JSON.parse(lines.at(-1)!) as JsonMetricsRequest;
}

const SESSION_FILE = /^(traces|metrics)-\d{8}T\d{9}Z-\d+-[0-9a-f]{4}-0001\.jsonl$/;

describe('the trace files', () => {
  it('reads back as the span tree that was recorded', async () => {
    const { telemetry, dir } = start();
    expect(telemetry.destination).toEqual({ kind: 'files', directory: dir });
    const tracer = trace.getTracer('files-test-scope');
    const ids: Record<string, SpanContext> = {};
    const before = Date.now();
    await tracer.startActiveSpan(
      'root',
      { kind: SpanKind.SERVER, attributes: { route: '/ask', n: 3, ratio: 0.5, ok: true, tags: ['a', 'b'] } },
      async (root) => {
        ids.root = root.spanContext();
        await tick();
        await tracer.startActiveSpan('child', async (child) => {
          ids.child = child.spanContext();
          child.addEvent('footprint.skill.hop', { to: 'billing', iteration: 2 });
          await tick();
          const leaf = tracer.startSpan('leaf', { kind: SpanKind.CLIENT });
          ids.leaf = leaf.spanContext();
          leaf.setStatus({ code: SpanStatusCode.ERROR, message: 'HTTP 429' });
          leaf.end();
          child.end();
        });
        root.end();
      },
    );
    await telemetry.forceFlush();

    const spans = await readSpans(dir);
    expect(telemetry.files().traces.map((f) => path.relative(dir, f))).toEqual([expect.stringMatching(SESSION_FILE)]);
    const byName = Object.fromEntries(spans.map((s) => [s.name, s]));
    expect(spans.map((s) => s.name).sort()).toEqual(['child', 'leaf', 'root']);
    for (const name of ['root', 'child', 'leaf']) {
      expect(byName[name]).toMatchObject({ traceId: ids.root!.traceId, spanId: ids[name]!.spanId, scope: 'files-test-scope' });
      expect(byName[name]!.resource['service.name']).toBe('files-test');
      expect(byName[name]!.startMs).toBeGreaterThanOrEqual(before - 1);
      expect(byName[name]!.endMs).toBeGreaterThanOrEqual(byName[name]!.startMs);
    }
    expect(byName.root!.parentSpanId).toBeUndefined();
    expect(byName.child!.parentSpanId).toBe(ids.root!.spanId);
    expect(byName.leaf!.parentSpanId).toBe(ids.child!.spanId);
    expect(byName.root).toMatchObject({
      kind: SpanKind.SERVER,
      attributes: { route: '/ask', n: 3, ratio: 0.5, ok: true, tags: ['a', 'b'] },
      status: { code: SpanStatusCode.UNSET },
    });
    expect(byName.root!.endMs - byName.root!.startMs).toBeGreaterThanOrEqual(9);
    expect(byName.child!.kind).toBe(SpanKind.INTERNAL);
    expect(byName.child!.events).toEqual([
      { name: 'footprint.skill.hop', timeUnixNano: expect.stringMatching(/^\d{19}$/), timeMs: expect.any(Number), attributes: { to: 'billing', iteration: 2 } },
    ]);
    expect(byName.leaf).toMatchObject({ kind: SpanKind.CLIENT, status: { code: SpanStatusCode.ERROR, message: 'HTTP 429' } });
  });

  it('holds one line per export batch, each an OTLP JSON ExportTraceServiceRequest', async () => {
    const { telemetry, dir } = start();
    const tracer = trace.getTracer('batches');
    tracer.startSpan('first').end();
    await telemetry.forceFlush();
    tracer.startSpan('second').end();
    tracer.startSpan('third').end();
    await telemetry.forceFlush();
    const lines = readFileSync(telemetry.files().traces[0]!, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    void dir;
    const names = lines.map((line) =>
      (JSON.parse(line) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] }).resourceSpans[0]!.scopeSpans[0]!.spans.map(
        (s) => s.name,
      ),
    );
    expect(names).toEqual([['first'], ['second', 'third']]);
  });

  it('records a traced agent run as one connected trace, with its metrics in its metrics file', async () => {
    const { telemetry, dir } = start();
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'lookup', args: {} }] }, 'paid'] });
    const agent = Agent.create({ provider, model: 'm-small', id: 'billing' })
      .tool({ name: 'lookup', description: 'Look up', inputSchema: { type: 'object' }, execute: () => 'found' })
      .build();
    expect((await agent.run('Was it paid?')).text).toBe('paid');
    await telemetry.shutdown();

    const spans = await readSpans(dir);
    expect(spans.length).toBeGreaterThan(3);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s.parentSpanId === undefined)).toHaveLength(1);
    expect(spans.every((s) => s.parentSpanId === undefined || ids.has(s.parentSpanId))).toBe(true);

    expect((await listSignalFiles(dir, 'metrics')).map((f) => path.relative(dir, f))).toEqual([expect.stringMatching(SESSION_FILE)]);
    const last = lastMetrics(telemetry);
    expect(pointsOf(last, 'footprint.runs')).toEqual([
      { attributes: { 'footprint.runner.kind': 'agent', 'footprint.runner.id': 'billing', 'footprint.run.outcome': 'ok' }, value: 1 },
    ]);
    expect(pointsOf(last, 'gen_ai.client.inference.duration')[0]!.value).toBe(2);
  });
});

describe('readSpans', () => {
  const line = (name: string) =>
    JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [{ scope: { name: 's' }, spans: [{ traceId: 't', spanId: name, name, kind: 3, startTimeUnixNano: '1000000', endTimeUnixNano: '3000000' }] }],
        },
      ],
    });

  it('skips a last line cut short by a crash, and names any other bad line with its line number', async () => {
    const dir = scratch();
    const cut = path.join(dir, 'cut.jsonl');
    writeFileSync(cut, `${line('a')}\n${line('b').slice(0, 40)}`);
    expect((await readSpans(cut)).map((s) => [s.name, s.kind, s.startMs, s.endMs])).toEqual([['a', SpanKind.CLIENT, 1, 3]]);
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, `${line('a')}\nnot json\n${line('c')}\n`);
    await expect(readSpans(bad)).rejects.toThrow(`${bad}:2: not OTLP JSON`);
  });

  it('finds no spans where nothing was exported yet (no file, an empty folder)', async () => {
    const dir = scratch();
    expect(await readSpans(path.join(dir, 'traces.jsonl'))).toEqual([]);
    expect(await readSpans(dir)).toEqual([]);
  });

  it('reads a folder: the legacy traces.jsonl first, then every session file in start order, never metrics', async () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'traces-20261130T101500000Z-7-beef-0002.jsonl'), `${line('s1-2')}\n`);
    writeFileSync(path.join(dir, 'traces-20261130T101500000Z-7-beef-0001.jsonl'), `${line('s1-1')}\n`);
    writeFileSync(path.join(dir, 'traces-20261130T090000000Z-9-0a0a-0001.jsonl'), `${line('s0')}\n`);
    writeFileSync(path.join(dir, 'traces.jsonl'), `${line('legacy')}\n`);
    writeFileSync(path.join(dir, 'metrics-20261130T101500000Z-7-beef-0001.jsonl'), '{}\n');
    writeFileSync(path.join(dir, 'notes.jsonl'), 'not telemetry\n');
    expect((await readSpans(dir)).map((s) => s.name)).toEqual(['legacy', 's0', 's1-1', 's1-2']);
  });
});

describe('exporter health in the file default', () => {
  it('counts every span written in otel.sdk.exporter.span.exported, from 0', async () => {
    const { telemetry } = start();
    await telemetry.forceFlush();
    const component = { 'otel.component.type': 'footprint_otlp_json_file_span_exporter', 'otel.component.name': 'footprint_otlp_json_file_span_exporter/0' };
    expect(pointsOf(lastMetrics(telemetry), 'otel.sdk.exporter.span.exported')).toEqual([{ attributes: component, value: 0 }]);
    for (let i = 0; i < 3; i++) trace.getTracer('t').startSpan(`s${i}`).end();
    await telemetry.shutdown();
    expect(pointsOf(lastMetrics(telemetry), 'otel.sdk.exporter.span.exported')).toEqual([{ attributes: component, value: 3 }]);
    expect(telemetry.health().spans).toEqual({ exported: 3, lost: {}, reasons: {}, inFlight: 0, queued: 0, queueCapacity: 2048, exporting: false });
  });

  it('counts the spans of a batch that could not be written as lost, cause write_failed', async () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'plain-file'), '');
    const health = new ExportHealth(10);
    const exporter = guardSpanExporter(fileSpanExporter({ directory: path.join(dir, 'plain-file', 'telemetry') }), { health, timeoutMs: 1_000 });
    const provider = new BasicTracerProvider();
    const spans = ['a', 'b'].map((name) => provider.getTracer('t').startSpan(name)).map((span) => (span.end(), span as unknown as ReadableSpan));
    const result = await new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toMatch(/^cannot create .*plain-file\/telemetry\/traces-.*-0001\.jsonl: ENOTDIR/);
    expect(health.snapshot().spans).toMatchObject({
      exported: 0,
      lost: { write_failed: 2 },
      reasons: { write_failed: expect.stringMatching(/^cannot create .*plain-file\/telemetry\/traces-.*-0001\.jsonl: ENOTDIR/) },
      inFlight: 0,
    });
  });
});

describe('startTelemetry', () => {
  it('refuses a second start while one runs (the first keeps running), and starts afresh after shutdown', async () => {
    const { telemetry, dir } = start();
    const second = () => startTelemetry({ serviceName: 'other', endpoint: 'http://127.0.0.1:4318' });
    expect(second).toThrow(TelemetryAlreadyStartedError);
    expect(second).toThrow(
      `startTelemetry() is already running (telemetry to ${dir}/); use the handle the first call returned, or await its shutdown() before starting again`,
    );
    expect(trace.getTracer('x').startSpan('still running').isRecording()).toBe(true);
    await telemetry.shutdown();
    expect(trace.getTracer('x').startSpan('after').isRecording()).toBe(false);
    const { telemetry: again } = start();
    expect(again).not.toBe(telemetry);
    expect(trace.getTracer('x').startSpan('again').isRecording()).toBe(true);
  });

  it('traces and counts every run with the trace detail it was given, leaves the environment alone, and unregisters at shutdown', async () => {
    const ids = () => [...registeredInstruments()].map((instrument) => instrument.id);
    expect(ids()).toEqual([]);
    const spanNames = async (traceDetail: 'full' | 'semantic') => {
      const dir = scratch();
      const telemetry = startTelemetry({ fileDirectory: dir, traceDetail, handleExit: false });
      expect(ids()).toEqual(['footprint-otel.tracing', 'footprint-otel.metrics']);
      await Agent.create({ provider: scripted({ replies: ['ok'] }), model: 'm-small', id: 'a' }).build().run('hi');
      await telemetry.shutdown();
      expect(ids()).toEqual([]);
      return (await readSpans(dir)).map((span) => span.name).sort();
    };
    const before = { ...process.env };
    expect(await spanNames('semantic')).toEqual(['chat m-small', 'invoke_agent a']);
    const full = await spanNames('full');
    expect(full.filter((name) => name === 'chat m-small' || name === 'invoke_agent a')).toEqual(['chat m-small', 'invoke_agent a']);
    expect(full.length).toBeGreaterThan(2);
    expect(process.env).toEqual(before);
  });
});
