/**
 * The real SDK metrics pipeline for the metrics tests: a MeterProvider with a reader the test
 * collects from on demand (cumulative, like production), registered globally so the metrics
 * instrument finds it the way it does in an app, plus helpers that pick series out of a collection.
 */
import { metrics, type Attributes } from '@opentelemetry/api';
import { afterAll, beforeAll } from 'vitest';
import { metricsInstrument, type MetricsInstrumentOptions } from '../../src/otel/index.js';
import { registerInstrument } from '../../src/runtime/index.js';
import {
  DataPointType,
  MeterProvider,
  MetricReader,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';

export class ManualReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

export interface Series {
  attributes: Attributes;
  /** Counter value, or the histogram's sum. */
  value: number;
  /** Histogram only. */
  histogram?: Histogram;
}

export interface Collection {
  metric(name: string): MetricData | undefined;
  names(): string[];
  series(name: string, match?: Attributes): Series[];
}

export interface MeterHarness {
  provider: MeterProvider;
  /** The reader itself, for tests that read the export as scopes (schema URLs) rather than by name. */
  reader: MetricReader;
  collect(): Promise<Collection>;
  shutdown(): Promise<void>;
}

/** A MeterProvider with a manual reader; `global` registers it as the process's provider. */
export function startMeter(options: { global?: boolean } = {}): MeterHarness {
  const reader = new ManualReader();
  const provider = new MeterProvider({ readers: [reader] });
  if (options.global !== false) metrics.setGlobalMeterProvider(provider);
  return {
    provider,
    reader,
    async collect() {
      const { resourceMetrics, errors } = await reader.collect();
      if (errors.length > 0) throw new AggregateError(errors, 'metric collection failed');
      const all = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
      return collectionOf(all);
    },
    async shutdown() {
      await provider.shutdown();
      if (options.global !== false) metrics.disable();
    },
  };
}

function collectionOf(all: MetricData[]): Collection {
  const byName = new Map(all.map((m) => [m.descriptor.name, m]));
  return {
    metric: (name) => byName.get(name),
    names: () => [...byName.keys()].sort(),
    series(name, match = {}) {
      const data = byName.get(name);
      if (!data) return [];
      const out: Series[] = [];
      for (const point of data.dataPoints as MetricData['dataPoints'][number][]) {
        if (!Object.entries(match).every(([k, v]) => point.attributes[k] === v)) continue;
        if (data.dataPointType === DataPointType.HISTOGRAM) {
          const histogram = point.value as Histogram;
          out.push({ attributes: point.attributes, value: histogram.sum ?? 0, histogram });
        } else {
          out.push({ attributes: point.attributes, value: point.value as number });
        }
      }
      return out;
    },
  };
}

/** The one series matching `match`; fails loudly when there is none or more than one. */
export function only(collection: Collection, name: string, match: Attributes): Series {
  const found = collection.series(name, match);
  if (found.length !== 1) {
    const seen = collection.series(name).map((s) => JSON.stringify(s.attributes));
    throw new Error(`expected one ${name} series matching ${JSON.stringify(match)}, found ${found.length}:\n${seen.join('\n')}`);
  }
  return found[0]!;
}

/**
 * For a test file (or describe block) that runs runners and reads their metrics: a global meter and
 * the metrics instrument (by default in the both-names mode), registered before its tests and removed after them.
 */
export function meteredRuns(options: MetricsInstrumentOptions = { semconv: 'both' }): { collect(): Promise<Collection> } {
  let meter: MeterHarness | undefined;
  let unregister = () => {};
  beforeAll(() => {
    meter = startMeter();
    unregister = registerInstrument(metricsInstrument(options));
  });
  afterAll(async () => {
    unregister();
    await meter?.shutdown();
  });
  return {
    collect: () => {
      if (!meter) throw new Error('meteredRuns(): collect() runs inside the tests, after beforeAll');
      return meter.collect();
    },
  };
}
