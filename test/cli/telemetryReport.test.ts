/**
 * The demo's account of its telemetry, from a health snapshot: delivered and lost counts by cause in
 * words, files written (and rotated away), and never a claim of delivery — no "sent over", no backend
 * links — when nothing was delivered.
 */
import { describe, expect, it } from 'vitest';
import { accountLine, everySpanLost, lossWarnings, telemetryLines } from '../../src/cli/telemetryReport.js';
import type { TelemetryHealth } from '../../src/telemetry/index.js';

const health = (spans: Partial<TelemetryHealth['spans']>, points: Partial<TelemetryHealth['metricPoints']> = {}): TelemetryHealth => ({
  spans: { exported: 0, lost: {}, inFlight: 0, queued: 0, queueCapacity: 2048, exporting: true, ...spans },
  metricPoints: { exported: 0, lost: {}, inFlight: 0, ...points },
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
    expect(accountLine({ exported: 10, lost: { timeout: 3, '500': 7, retryable_status: 1, exit_deadline: 2, queue_full: 4 }, inFlight: 0 })).toBe(
      '10 exported, 17 lost (HTTP 500 7, span queue full 4, timeout 3, not flushed by the exit deadline 2, HTTP 429/502/503/504 after retries 1)',
    );
  });

  it('claims nothing was sent when nothing was delivered, and says every span was lost', () => {
    const lostAll = health({ lost: { refused: 884 } }, { lost: { refused: 40 } });
    expect(telemetryLines(otlp, lostAll, noFiles)).toEqual([
      'Telemetry: spans 0 exported, 884 lost (connection refused 884); metric data points 0 exported, 40 lost (connection refused 40)',
      '  nothing was delivered to http://127.0.0.1:4318/v1/traces or http://127.0.0.1:4318/v1/metrics',
    ]);
    expect(everySpanLost(lostAll)).toBe(true);
    expect(lossWarnings(otlp, lostAll).at(-1)).toBe('warning: every span of this run was lost; exit status 3');
  });

  it('links the backends only for what was delivered', () => {
    const spansOnly = health({ exported: 5 }, { lost: { '400': 9 } });
    expect(telemetryLines(otlp, spansOnly, noFiles)).toEqual([
      'Telemetry: spans 5 exported, 0 lost; metric data points 0 exported, 9 lost (HTTP 400 9)',
      '  sent over OTLP/HTTP: http://127.0.0.1:4318/v1/traces, http://127.0.0.1:4318/v1/metrics',
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
      '  view a stored run again: npx footprint-otel view /t [--trips]',
    ]);
  });
});
