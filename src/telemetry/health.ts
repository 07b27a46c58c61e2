/**
 * Exporter health: every failed, refused or timed-out export and every span dropped at a full queue
 * is counted — in footprint.telemetry.export.failures / footprint.telemetry.spans.dropped (exported
 * like any metric, pre-created at 0 so the first failure shows in increase()) and in a snapshot the
 * app can read. Each kind of trouble is reported once through the OTel diag logger; nothing is ever
 * thrown into the app.
 */
import { diag, type Counter, type Meter } from '@opentelemetry/api';
import { createCounter, METRIC_ATTRIBUTES as ATTR, METRICS } from '../otel/index.js';

export type Signal = 'traces' | 'metrics';

export interface TelemetryHealth {
  exportFailures: Record<Signal, number>;
  spansDropped: number;
}

export class ExportHealth {
  private readonly failures: Record<Signal, number> = { traces: 0, metrics: 0 };
  private dropped = 0;
  private readonly reported = new Set<string>();
  private failureCounter?: Counter;
  private droppedCounter?: Counter;

  /** Starts counting into the given meter (a meter of the SDK being set up). */
  attach(meter: Meter): void {
    this.failureCounter = createCounter(meter, METRICS.exportFailures);
    this.droppedCounter = createCounter(meter, METRICS.spansDropped);
    for (const signal of ['traces', 'metrics'] as const) this.failureCounter.add(this.failures[signal], { [ATTR.signal]: signal });
    this.droppedCounter.add(this.dropped);
  }

  exportFailed(signal: Signal, error: unknown): void {
    this.failures[signal]++;
    this.failureCounter?.add(1, { [ATTR.signal]: signal });
    this.reportOnce(
      `export:${signal}`,
      `footprint-otel: ${signal} export failed (${describe(error)}); further failures are counted in ` +
        `${METRICS.exportFailures.name} and not logged again`,
    );
  }

  spanDropped(): void {
    this.dropped++;
    this.droppedCounter?.add(1);
    this.reportOnce(
      'dropped',
      `footprint-otel: the span export queue is full and spans are being dropped; they are counted in ` +
        `${METRICS.spansDropped.name} and not logged again`,
    );
  }

  snapshot(): TelemetryHealth {
    return { exportFailures: { ...this.failures }, spansDropped: this.dropped };
  }

  private reportOnce(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    diag.warn(message);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return error === undefined ? 'no reason given' : String(error);
}
