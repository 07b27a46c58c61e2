/**
 * Exporter health: exactly what became of every span and metric data point handed to export —
 * exported, or lost and why (see lossCause.ts) — plus the span queue's depth, for a snapshot the app
 * can read (the demo's summary and its backpressure) and for metrics. The metrics are the OTel SDK's
 * own self-observability instruments wherever the SDK has them: spans dropped at a full queue are
 * counted by the SDK's batch processor in otel.sdk.processor.span.processed{error.type=queue_full}
 * (see spanQueue.ts). The SDK counts exports only for its OTLP exporters and names a failure only by
 * its error class, so the export guard counts every exporter — the file default too — in the same
 * semantic-convention instruments, otel.sdk.exporter.span.exported and
 * otel.sdk.exporter.metric_data_point.exported, with error.type set to the cause; the OTLP exporters'
 * own self-observability must therefore stay off, or exports would be counted twice. Each kind of
 * trouble is reported once through the OTel diag logger; nothing is ever thrown into the app.
 */
import { diag, type Counter, type Meter } from '@opentelemetry/api';
import { semconv } from '../otel/index.js';
import { describeCause, EXIT_DEADLINE, QUEUE_FULL, REJECTED, type LossCause } from './lossCause.js';
import type { Rejection } from './partialSuccess.js';

export type Signal = 'traces' | 'metrics';

export interface SignalHealth {
  /** Items (spans, or metric data points) the destination accepted. */
  exported: number;
  /** Items lost, by cause. */
  lost: Record<LossCause, number>;
  /** The first error of each cause, in one line (the collector's or the file system's words, e.g. ENOSPC). */
  reasons: Record<LossCause, string>;
  /** Items handed to the exporter whose export has not ended yet. */
  inFlight: number;
}

export interface TelemetryHealth {
  spans: SignalHealth & {
    /** Finished spans waiting in the batch queue. */
    queued: number;
    queueCapacity: number;
    /**
     * Whether spans are being exported: the latest span export succeeded (true before the first)
     * and shutdown() has not been called (after it nothing is exported any more).
     */
    exporting: boolean;
  };
  metricPoints: SignalHealth;
}

/** The exporter's identity in the otel.sdk.exporter.* metrics. */
export interface ExporterComponent {
  signal: Signal;
  /** otel.component.type, e.g. otlp_http_span_exporter. */
  type: string;
}

const EXPORTED = {
  traces: { name: semconv.METRIC_OTEL_SDK_EXPORTER_SPAN_EXPORTED, unit: '{span}', item: 'spans' },
  metrics: { name: semconv.METRIC_OTEL_SDK_EXPORTER_METRIC_DATA_POINT_EXPORTED, unit: '{data_point}', item: 'metric data points' },
} as const;

export class ExportHealth {
  private readonly signals: Record<Signal, SignalHealth> = { traces: emptySignal(), metrics: emptySignal() };
  private queued = 0;
  private lastSpanExportOk = true;
  private shutDown = false;
  private readonly reported = new Set<string>();
  private readonly counters: Partial<Record<Signal, Counter>> = {};
  private readonly components: Partial<Record<Signal, Record<string, string>>> = {};

  constructor(private readonly queueCapacity = 0) {}

  /** Starts counting into the given meter, for these exporters (each pre-created at 0). */
  attach(meter: Meter, exporters: ExporterComponent[]): void {
    for (const { signal, type } of exporters) {
      const spec = EXPORTED[signal];
      const counter = meter.createCounter(spec.name, {
        unit: spec.unit,
        description: `The number of ${spec.item} for which the export has finished, either successful or failed.`,
      });
      const component = { [semconv.ATTR_OTEL_COMPONENT_TYPE]: type, [semconv.ATTR_OTEL_COMPONENT_NAME]: `${type}/0` };
      counter.add(this.signals[signal].exported, component);
      for (const [cause, count] of Object.entries(this.signals[signal].lost)) counter.add(count, { ...component, [semconv.ATTR_ERROR_TYPE]: cause });
      this.counters[signal] = counter;
      this.components[signal] = component;
    }
  }

  exportStarted(signal: Signal, items: number): void {
    this.signals[signal].inFlight += items;
  }

  exportSucceeded(signal: Signal, items: number): void {
    const health = this.signals[signal];
    health.inFlight -= items;
    health.exported += items;
    if (signal === 'traces') this.lastSpanExportOk = true;
    this.counters[signal]?.add(items, this.components[signal]);
  }

  exportFailed(signal: Signal, items: number, cause: LossCause, error: unknown): void {
    this.exportLost(signal, items, cause, describe(error));
    if (signal === 'traces') this.lastSpanExportOk = false;
    this.reportOnce(
      `export:${signal}:${cause}`,
      `footprint-otel: ${signal} export failed (${describeCause(cause)}: ${describe(error)}); ${EXPORTED[signal].item} lost this way ` +
        `are counted in ${EXPORTED[signal].name}{error.type="${cause}"} and not logged again`,
    );
  }

  /**
   * The collector accepted the export but rejected some of its items (an OTLP partial success): those
   * are lost (`rejected`, at most the export's size), the rest exported. Rejecting none is the
   * collector's warning, logged once.
   */
  exportPartlyRejected(signal: Signal, items: number, rejection: Rejection): void {
    const rejected = Math.min(items, rejection.rejected);
    const said = rejection.message === '' ? '' : ` (${quoted(rejection.message)})`;
    if (rejected === 0) {
      this.exportSucceeded(signal, items);
      this.reportOnce(`warning:${signal}`, `footprint-otel: the collector accepted a ${signal} export with a warning${said}`);
      return;
    }
    // The accepted part first (a span export that was answered counts as ok), then the rejected one.
    if (items > rejected) this.exportSucceeded(signal, items - rejected);
    else if (signal === 'traces') this.lastSpanExportOk = true;
    this.exportLost(signal, rejected, REJECTED, `the collector rejected ${rejected} of ${items}${said}`);
    const item = EXPORTED[signal].item;
    this.reportOnce(
      `export:${signal}:${REJECTED}`,
      `footprint-otel: the collector accepted a ${signal} export but rejected ${rejected} of its ${items} ${item}${said}; ` +
        `${item} lost this way are counted in ${EXPORTED[signal].name}{error.type="${REJECTED}"} and not logged again`,
    );
  }

  /** Items of an export that ended lost: out of flight, counted by cause (with its first reason) and in the counter. */
  private exportLost(signal: Signal, items: number, cause: LossCause, reason: string): void {
    const health = this.signals[signal];
    health.inFlight -= items;
    health.lost[cause] = (health.lost[cause] ?? 0) + items;
    health.reasons[cause] ??= reason;
    this.counters[signal]?.add(items, { ...this.components[signal], [semconv.ATTR_ERROR_TYPE]: cause });
  }

  spanQueued(): void {
    this.queued++;
  }

  spansHandedToExporter(count: number): void {
    this.queued = Math.max(0, this.queued - count);
  }

  spanDropped(): void {
    const { lost, reasons } = this.signals.traces;
    lost[QUEUE_FULL] = (lost[QUEUE_FULL] ?? 0) + 1;
    reasons[QUEUE_FULL] ??= `the span queue of ${this.queueCapacity} was full`;
    this.reportOnce(
      QUEUE_FULL,
      'footprint-otel: the span export queue is full and spans are being dropped; they are counted in ' +
        `otel.sdk.processor.span.processed{error.type="${QUEUE_FULL}"} and not logged again`,
    );
  }

  /** The pipeline was shut down: nothing is exported from now on. */
  stopped(): void {
    this.shutDown = true;
  }

  snapshot(): TelemetryHealth {
    return {
      spans: { ...copy(this.signals.traces), queued: this.queued, queueCapacity: this.queueCapacity, exporting: this.lastSpanExportOk && !this.shutDown },
      metricPoints: copy(this.signals.metrics),
    };
  }

  /**
   * The snapshot as of giving up at an exit deadline: spans still queued and items still in flight
   * count as lost (exit_deadline). Nothing is recorded; the process is ending.
   */
  abandonedSnapshot(): TelemetryHealth {
    const now = this.snapshot();
    const abandon = (health: SignalHealth, pending: number): void => {
      if (pending > 0) {
        health.lost[EXIT_DEADLINE] = (health.lost[EXIT_DEADLINE] ?? 0) + pending;
        health.reasons[EXIT_DEADLINE] ??= 'still queued or in flight when the exit deadline passed';
      }
      health.inFlight = 0;
    };
    abandon(now.spans, now.spans.queued + now.spans.inFlight);
    now.spans.queued = 0;
    abandon(now.metricPoints, now.metricPoints.inFlight);
    return now;
  }

  private reportOnce(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    diag.warn(message);
  }
}

export function emptyHealth(): TelemetryHealth {
  return { spans: { ...emptySignal(), queued: 0, queueCapacity: 0, exporting: true }, metricPoints: emptySignal() };
}

/** Total lost items of one signal. */
export function totalLost(health: SignalHealth): number {
  return Object.values(health.lost).reduce((sum, n) => sum + n, 0);
}

function emptySignal(): SignalHealth {
  return { exported: 0, lost: {}, reasons: {}, inFlight: 0 };
}

function copy(health: SignalHealth): SignalHealth {
  return { exported: health.exported, lost: { ...health.lost }, reasons: { ...health.reasons }, inFlight: health.inFlight };
}

/** Outside text for a log line: JSON-quoted (control characters escaped), cut to 200 characters. */
function quoted(text: string): string {
  const cut = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  return JSON.stringify(cut);
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return error === undefined ? 'no reason given' : String(error);
}
