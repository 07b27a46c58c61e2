/**
 * The instrumentation scopes that emit GenAI telemetry: a consumer can only tell which conventions a
 * span or metric follows from its scope's schema URL, and which build produced it from its version.
 * A tracer names the span model its spans follow (v1.41.0, or the current model's dev schema); a meter follows the conventions that define its gen_ai.* metrics
 * (metricDefinitions.ts), so it must carry exactly that one schema URL.
 */
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { metricDefinition, type MetricModel } from './metricDefinitions.js';
import type { SemconvModel } from './model.js';
import type { Violation } from './violation.js';

interface Scope {
  name: string;
  version?: string;
  schemaUrl?: string;
}

export function scopeViolations(model: SemconvModel, spans: readonly ReadableSpan[], metrics: ResourceMetrics | undefined, tracerSchemaUrl: string, metricModel: MetricModel = 'v1.41'): Violation[] {
  /** Each scope once, with the schema URLs its GenAI telemetry requires. */
  const scopes = new Map<string, { kind: string; scope: Scope; required: Set<string> }>();
  const note = (kind: string, scope: Scope, schemaUrl: string) => {
    const key = `${kind} ${scope.name} ${String(scope.schemaUrl)}`;
    const entry = scopes.get(key) ?? { kind, scope, required: new Set<string>() };
    entry.required.add(schemaUrl);
    scopes.set(key, entry);
  };
  for (const span of spans) {
    if (span.attributes['gen_ai.operation.name'] !== undefined) note('tracer', span.instrumentationScope, tracerSchemaUrl);
  }
  for (const { scope, metrics: data } of metrics?.scopeMetrics ?? []) {
    for (const metric of data) {
      const name = metric.descriptor.name;
      // A gen_ai.* name the model lacks has no schema URL to require (the metric rules name it).
      const definition = name.startsWith('gen_ai.') ? metricDefinition(model, name, metricModel) : undefined;
      if (definition) note('meter', scope, definition.schemaUrl);
    }
  }
  const found: Violation[] = [];
  for (const { kind, scope, required } of scopes.values()) {
    const where = `${kind} scope "${scope.name}"`;
    if (!scope.version) found.push({ where, rule: 'has no version' });
    const urls = [...required].sort();
    if (urls.length > 1) found.push({ where, rule: `mixes metrics of several conventions (${urls.join(', ')})` });
    else if (scope.schemaUrl !== urls[0]) found.push({ where, rule: `schema URL must be ${urls[0]}, is ${String(scope.schemaUrl)}` });
  }
  return found;
}
