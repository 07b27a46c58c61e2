/**
 * Creates OTel API instruments from catalog entries, so a name, unit, value type or bucket list is
 * written once (in the catalog) and every instrument — the runtime's and the exporter-health
 * counters of startTelemetry — is made the same way.
 */
import { ValueType, type Counter, type Histogram, type Meter } from '@opentelemetry/api';
import { METRICS, type MetricSpec } from './catalog.js';

type CounterSpec = MetricSpec & { kind: 'counter' };
type HistogramSpec = MetricSpec & { kind: 'histogram' };

export function createCounter(meter: Meter, spec: CounterSpec): Counter {
  return meter.createCounter(spec.name, {
    unit: spec.unit,
    description: spec.description,
    valueType: spec.valueType === 'int' ? ValueType.INT : ValueType.DOUBLE,
  });
}

export function createHistogram(meter: Meter, spec: HistogramSpec): Histogram {
  return meter.createHistogram(spec.name, {
    unit: spec.unit,
    description: spec.description,
    valueType: spec.valueType === 'int' ? ValueType.INT : ValueType.DOUBLE,
    advice: spec.buckets ? { explicitBucketBoundaries: [...spec.buckets] } : undefined,
  });
}

/** The instruments a run records into. */
export interface RunInstruments {
  tokenUsage: Histogram;
  operationDuration: Histogram;
  timeToFirstChunk: Histogram;
  timePerOutputChunk: Histogram;
  llmCost: Counter;
  routeDecisions: Counter;
  routeTrips: Counter;
  skillEscalations: Counter;
  skillRejections: Counter;
  runs: Counter;
  runDuration: Histogram;
}

export function createRunInstruments(meter: Meter): RunInstruments {
  return {
    tokenUsage: createHistogram(meter, METRICS.tokenUsage),
    operationDuration: createHistogram(meter, METRICS.operationDuration),
    timeToFirstChunk: createHistogram(meter, METRICS.timeToFirstChunk),
    timePerOutputChunk: createHistogram(meter, METRICS.timePerOutputChunk),
    llmCost: createCounter(meter, METRICS.llmCost),
    routeDecisions: createCounter(meter, METRICS.routeDecisions),
    routeTrips: createCounter(meter, METRICS.routeTrips),
    skillEscalations: createCounter(meter, METRICS.skillEscalations),
    skillRejections: createCounter(meter, METRICS.skillRejections),
    runs: createCounter(meter, METRICS.runs),
    runDuration: createHistogram(meter, METRICS.runDuration),
  };
}
