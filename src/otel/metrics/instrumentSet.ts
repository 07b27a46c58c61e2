/**
 * Creates OTel API instruments from catalog entries, so a name, unit, value type or bucket list is
 * written once (in the catalog) and every instrument — the runtime's and the exporter-health
 * counters of startTelemetry — is made the same way. Every instrument made here leaves out of
 * each data point the attributes whose value is '' (metricAttributes.ts withoutEmptyValues).
 */
import { ValueType, type Counter, type Histogram, type Meter } from '@opentelemetry/api';
import { emitsNamesOf, type SemconvMode } from '../encoding/index.js';
import { METRICS, type MetricSpec } from './catalog.js';
import { withoutEmptyValues } from './metricAttributes.js';

type CounterSpec = MetricSpec & { kind: 'counter' };
type HistogramSpec = MetricSpec & { kind: 'histogram' };

export function createCounter(meter: Meter, spec: CounterSpec): Counter {
  const counter = meter.createCounter(spec.name, {
    unit: spec.unit,
    description: spec.description,
    valueType: spec.valueType === 'int' ? ValueType.INT : ValueType.DOUBLE,
  });
  return { add: (value, attributes, context) => counter.add(value, withoutEmptyValues(attributes), context) };
}

export function createHistogram(meter: Meter, spec: HistogramSpec): Histogram {
  const histogram = meter.createHistogram(spec.name, {
    unit: spec.unit,
    description: spec.description,
    valueType: spec.valueType === 'int' ? ValueType.INT : ValueType.DOUBLE,
    advice: spec.buckets ? { explicitBucketBoundaries: [...spec.buckets] } : undefined,
  });
  return { record: (value, attributes, context) => histogram.record(value, withoutEmptyValues(attributes), context) };
}

/** The instruments a run records into. */
export interface RunInstruments {
  /** v1.41's token histogram: absent in the 'current' mode. */
  tokenUsage?: Histogram;
  /** The current model's token counters: absent in the 'v1.41' mode. */
  inferenceUsage?: InferenceUsageCounters;
  /** A model call's duration under each name the mode emits (two in 'both'): every call is recorded in each. */
  modelCallDurations: readonly Histogram[];
  /** A streamed call's time to first chunk, likewise. */
  timeToFirstChunk: readonly Histogram[];
  /** A streamed call's time between chunks, likewise. */
  timePerOutputChunk: readonly Histogram[];
  /** The current model's invocation duration (agent turns and compositions): absent in the 'v1.41' mode. */
  invocationDuration?: Histogram;
  /** The v1.41 mode's agent-turn duration: absent in the 'current' mode. */
  invokeAgentDuration?: Histogram;
  /** The v1.41 mode's composition duration: absent in the 'current' mode. */
  workflowDuration?: Histogram;
  invokeAgentInferenceCalls: Histogram;
  invokeAgentToolCalls: Histogram;
  executeToolDuration: Histogram;
  llmCost: Counter;
  routeDecisions: Counter;
  /** The loop-guard trip counter under each name the mode emits (two in 'both'): every trip is added to each. */
  trips: readonly Counter[];
  llmFallbacks: Counter;
  skillEscalations: Counter;
  skillRejections: Counter;
  runs: Counter;
  runDuration: Histogram;
}

export interface InferenceUsageCounters {
  input: Counter;
  output: Counter;
  cacheRead: Counter;
  cacheWrite: Counter;
  reasoning: Counter;
}

/**
 * The meter of the scope a catalog entry is recorded under: one per conventions schema URL (its
 * schemaUrl, else v1.41.0), so a consumer reads from each metric's scope which conventions it follows.
 */
export type MeterForSchema = (schemaUrl: string | undefined) => Meter;

/** The run's instruments under the names `mode` emits: in 'both', each renamed metric once under each name. */
export function createRunInstruments(meterFor: MeterForSchema, mode: SemconvMode): RunInstruments {
  const histogram = (spec: HistogramSpec) => createHistogram(meterFor(spec.schemaUrl), spec);
  const counter = (spec: CounterSpec) => createCounter(meterFor(spec.schemaUrl), spec);
  /** The histograms of those specs the mode emits, in the order given. */
  const histograms = (...specs: HistogramSpec[]) => specs.filter((spec) => emitsNamesOf(mode, spec.names)).map(histogram);
  const ifEmitted = (spec: HistogramSpec) => (emitsNamesOf(mode, spec.names) ? histogram(spec) : undefined);
  return {
    tokenUsage: emitsNamesOf(mode, METRICS.tokenUsage.names) ? histogram(METRICS.tokenUsage) : undefined,
    inferenceUsage: emitsNamesOf(mode, METRICS.inferenceInputTokens.names)
      ? {
          input: counter(METRICS.inferenceInputTokens),
          output: counter(METRICS.inferenceOutputTokens),
          cacheRead: counter(METRICS.inferenceCacheReadTokens),
          cacheWrite: counter(METRICS.inferenceCacheWriteTokens),
          reasoning: counter(METRICS.inferenceReasoningTokens),
        }
      : undefined,
    modelCallDurations: histograms(METRICS.inferenceDuration, METRICS.operationDuration),
    timeToFirstChunk: histograms(METRICS.inferenceTimeToFirstChunk, METRICS.timeToFirstChunk),
    timePerOutputChunk: histograms(METRICS.inferenceTimePerOutputChunk, METRICS.timePerOutputChunk),
    invocationDuration: ifEmitted(METRICS.invocationDuration),
    invokeAgentDuration: ifEmitted(METRICS.invokeAgentDuration),
    workflowDuration: ifEmitted(METRICS.workflowDuration),
    invokeAgentInferenceCalls: histogram(METRICS.invokeAgentInferenceCalls),
    invokeAgentToolCalls: histogram(METRICS.invokeAgentToolCalls),
    executeToolDuration: histogram(METRICS.executeToolDuration),
    llmCost: counter(METRICS.llmCost),
    routeDecisions: counter(METRICS.routeDecisions),
    trips: [METRICS.loopGuardTrips, METRICS.routeTrips].filter((spec) => emitsNamesOf(mode, spec.names)).map(counter),
    llmFallbacks: counter(METRICS.llmFallbacks),
    skillEscalations: counter(METRICS.skillEscalations),
    skillRejections: counter(METRICS.skillRejections),
    runs: counter(METRICS.runs),
    runDuration: histogram(METRICS.runDuration),
  };
}
