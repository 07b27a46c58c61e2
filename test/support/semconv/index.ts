/**
 * The GenAI conformance checker (test support; imports the vendored models — v1.41.0, the
 * development channel for the metrics merged since, the current model at e9de14b — ajv and the OTel
 * SDK types only). checkTelemetry() judges a scenario's exported spans and metric data and returns
 * every broken rule as a readable line; see test/semconv/README.md for what it checks and why.
 */
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { CURRENT_SCHEMA_URL, loadCurrentModel } from './currentModel.js';
import { loadSemconvModel, SEMCONV_SCHEMA_URL } from './model.js';
import { metricViolations, type AvailableOnPoint } from './metricRules.js';
import { scopeViolations } from './scopeRules.js';
import { CURRENT_SPANS, spanViolations, V1_41_SPANS, type AvailableOnSpan, type StartSnapshot } from './spanRules.js';
import { formatViolations, type Violation } from './violation.js';

export { loadSemconvModel } from './model.js';
export { startSemconvTelemetry, type SemconvTelemetry, type TelemetryOptions } from './telemetry.js';

export interface TelemetryUnderTest {
  spans: readonly ReadableSpan[];
  /** Omit to skip the at-start rules. */
  startOf?: (span: ReadableSpan) => StartSnapshot | undefined;
  metrics?: ResourceMetrics;
  availableOnSpan: AvailableOnSpan;
  availableOnPoint?: AvailableOnPoint;
  /** The model the spans, metrics and events follow: 'current' (the default mode's) or 'v1.41' (the default here, and the v1.41 mode's). */
  spanModel?: 'current' | 'v1.41';
}

/** Every broken rule, formatted and sorted (an empty list means the telemetry conforms). */
export function checkTelemetry(input: TelemetryUnderTest): string[] {
  const current = input.spanModel === 'current';
  const model = current ? loadCurrentModel() : loadSemconvModel();
  const metricModel = current ? 'current' : 'v1.41';
  const spans = current ? CURRENT_SPANS : V1_41_SPANS;
  const found: Violation[] = [];
  for (const span of input.spans) {
    found.push(...spanViolations(spans, { span, available: input.availableOnSpan(span), atStart: input.startOf?.(span) }));
  }
  const availableOnPoint = input.availableOnPoint ?? ((): readonly string[] => []);
  for (const scope of input.metrics?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) found.push(...metricViolations(model, metric, availableOnPoint, metricModel));
  }
  found.push(...scopeViolations(model, input.spans, input.metrics, current ? CURRENT_SCHEMA_URL : SEMCONV_SCHEMA_URL, metricModel));
  return formatViolations(found);
}
