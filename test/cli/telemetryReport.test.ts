/**
 * The demo's account of its telemetry, from a health snapshot: delivered and lost counts by cause in
 * words, files written (and rotated away), and never a claim of delivery — no "sent over", no backend
 * links — when nothing was delivered. Each message says what happened, where (the signal's own
 * target, the folder and the file system's error), and what to do.
 */
import { describe, expect, it } from 'vitest';
import { accountLine, everySpanLost, lossWarnings, telemetryLines, waterfallNote } from '../../src/cli/telemetryReport.js';
import type { TelemetryHealth } from '../../src/telemetry/index.js';

const health = (spans: Partial<TelemetryHealth['spans']>, points: Partial<TelemetryHealth['metricPoints']> = {}): TelemetryHealth => ({
  spans: { exported: 0, lost: {}, reasons: {}, inFlight: 0, queued: 0, queueCapacity: 2048, exporting: true, ...spans },
  metricPoints: { exported: 0, lost: {}, reasons: {}, inFlight: 0, ...points },
});
const otlp = {
  kind: 'otlp' as const,
  traces: 'http://127.0.0.1:4318/v1/traces',
  metrics: 'http://127.0.0.1:4318/v1/metrics',
  protocols: { traces: 'http/protobuf' as const, metrics: 'http/protobuf' as const },
};
const noFiles = { traces: [], metrics: [], removedTraceFiles: 0 };

describe('the telemetry account', () => {
  it('names every cause in words, largest first', () => {
    expect(accountLine({ exported: 10, lost: { timeout: 3, '500': 7, retryable_status: 1, exit_deadline: 2, queue_full: 4, rejected: 5 }, reasons: {}, inFlight: 0 })).toBe(
      '10 exported, 22 lost (HTTP 500 7, rejected by the collector 5, span queue full 4, timeout 3, not flushed by the exit deadline 2, HTTP 429/502/503/504 after retries 1)',
    );
  });

  it('claims nothing was sent when nothing was delivered, and says every span was lost', () => {
    const lostAll = health({ lost: { refused: 884 } }, { lost: { refused: 40 } });
    expect(telemetryLines(otlp, lostAll, noFiles)).toEqual([
      'Telemetry: spans 0 exported, 884 lost (connection refused 884); metric data points 0 exported, 40 lost (connection refused 40)',
      '  traces: nothing was delivered to http://127.0.0.1:4318/v1/traces',
      '  metrics: nothing was delivered to http://127.0.0.1:4318/v1/metrics',
    ]);
    expect(everySpanLost(lostAll)).toBe(true);
    expect(lossWarnings(otlp, lostAll)).toEqual([
      'warning: telemetry spans lost: 0 exported, 884 lost (connection refused 884); is the collector at http://127.0.0.1:4318/v1/traces reachable and accepting?',
      'warning: telemetry metric data points lost: 0 exported, 40 lost (connection refused 40); is the collector at http://127.0.0.1:4318/v1/metrics reachable and accepting?',
      'warning: every span of this run was lost; exit status 3',
    ]);
  });

  it('links the backends only for what was delivered', () => {
    const spansOnly = health({ exported: 5 }, { lost: { '400': 9 } });
    expect(telemetryLines(otlp, spansOnly, noFiles)).toEqual([
      'Telemetry: spans 5 exported, 0 lost; metric data points 0 exported, 9 lost (HTTP 400 9)',
      '  traces: sent over OTLP/HTTP to http://127.0.0.1:4318/v1/traces',
      '  metrics: nothing was delivered to http://127.0.0.1:4318/v1/metrics',
      '  Jaeger:  http://localhost:16686 (service footprint-otel-demo; search tag footprint.trip.kinds)',
    ]);
    expect(everySpanLost(spansOnly)).toBe(false);
  });

  it('lists the files written and says when rotation deleted some', () => {
    const files = { traces: ['/t/traces-s-0003.jsonl', '/t/traces-s-0004.jsonl'], metrics: ['/t/metrics-s-0001.jsonl'], removedTraceFiles: 2 };
    expect(telemetryLines({ kind: 'files', directory: '/t' }, health({ exported: 7 }, { exported: 3 }), files)).toEqual([
      'Telemetry: spans 7 exported, 0 lost; metric data points 3 exported, 0 lost',
      '  written to /t/ (this run: 2 trace file(s), 1 metric file(s))',
      '    /t/traces-s-0003.jsonl',
      '    /t/traces-s-0004.jsonl',
      '    /t/metrics-s-0001.jsonl',
      "  rotation deleted this run's 2 oldest trace file(s): it keeps the newest 2 (64 MiB each)",
      '  view a stored run again: npx footprint-otel view /t [--trips] (in a clone of the repository, run npm run build first)',
    ]);
  });
});

describe('messages that say what happened, where, and what to do', () => {
  it('OTEL_TRACES_EXPORTER=none: traces are not exported, and a metric loss names the metrics collector', () => {
    const destination = { ...otlp, traces: 'none', protocols: { metrics: 'http/protobuf' as const } };
    const lostMetrics = health({}, { lost: { refused: 40 } });
    expect(telemetryLines(destination, lostMetrics, noFiles)).toEqual([
      'Telemetry: spans 0 exported, 0 lost; metric data points 0 exported, 40 lost (connection refused 40)',
      '  traces: not exported (OTEL_TRACES_EXPORTER=none)',
      '  metrics: nothing was delivered to http://127.0.0.1:4318/v1/metrics',
    ]);
    expect(lossWarnings(destination, lostMetrics)).toEqual([
      'warning: telemetry metric data points lost: 0 exported, 40 lost (connection refused 40); is the collector at http://127.0.0.1:4318/v1/metrics reachable and accepting?',
    ]);
    expect(waterfallNote(destination)).toBe('(no waterfall: traces were not exported, OTEL_TRACES_EXPORTER=none)');
  });

  it('the console exporter: printed to the console, no OTLP, no Jaeger or Grafana', () => {
    const destination = { kind: 'otlp' as const, traces: 'console', metrics: 'console', protocols: {} };
    expect(telemetryLines(destination, health({ exported: 9 }, { exported: 4 }), noFiles)).toEqual([
      'Telemetry: spans 9 exported, 0 lost; metric data points 4 exported, 0 lost',
      '  traces: printed to the console (OTEL_TRACES_EXPORTER=console)',
      '  metrics: printed to the console (OTEL_METRICS_EXPORTER=console)',
    ]);
    expect(waterfallNote(destination)).toBe('(no waterfall: the traces were printed to the console above, OTEL_TRACES_EXPORTER=console)');
    expect(waterfallNote(otlp)).toBe(
      '(no waterfall: it is drawn from telemetry files, and the traces went to http://127.0.0.1:4318/v1/traces; open the run in Jaeger if that collector sends traces there)',
    );
  });

  it.each([
    ['ENOSPC', 'writing /t/traces-s-0001.jsonl failed: ENOSPC: no space left on device, write'],
    ['EROFS', "cannot create /t/traces-s-0001.jsonl: EROFS: read-only file system, open '/t/traces-s-0001.jsonl'"],
  ])('a folder that cannot be written (%s): the error, no "written to", no view hint', (_code, spanReason) => {
    const failed = health({ lost: { write_failed: 12 }, reasons: { write_failed: spanReason } }, { lost: { write_failed: 3 }, reasons: { write_failed: spanReason } });
    expect(telemetryLines({ kind: 'files', directory: '/t' }, failed, noFiles)).toEqual([
      'Telemetry: spans 0 exported, 12 lost (file write failed 12); metric data points 0 exported, 3 lost (file write failed 3)',
      `  nothing could be written to /t/: ${spanReason}`,
    ]);
    expect(lossWarnings({ kind: 'files', directory: '/t' }, failed)).toEqual([
      `warning: telemetry spans lost: 0 exported, 12 lost (file write failed 12); ${spanReason}; free space in /t/, make it writable, or run from another folder`,
      `warning: telemetry metric data points lost: 0 exported, 3 lost (file write failed 3); ${spanReason}; free space in /t/, make it writable, or run from another folder`,
      'warning: every span of this run was lost; exit status 3',
    ]);
  });
});
