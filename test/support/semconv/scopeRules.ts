/**
 * The instrumentation scopes that emit GenAI telemetry: a consumer can only tell which conventions a
 * span or metric follows from its scope's schema URL, and which build produced it from its version.
 */
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SEMCONV_SCHEMA_URL } from './model.js';
import type { Violation } from './violation.js';

interface Scope {
  name: string;
  version?: string;
  schemaUrl?: string;
}

export function scopeViolations(spans: readonly ReadableSpan[], metrics?: ResourceMetrics): Violation[] {
  const scopes = new Map<string, { kind: string; scope: Scope }>();
  for (const span of spans) {
    if (span.attributes['gen_ai.operation.name'] !== undefined) scopes.set(`tracer ${span.instrumentationScope.name}`, { kind: 'tracer', scope: span.instrumentationScope });
  }
  for (const { scope, metrics: data } of metrics?.scopeMetrics ?? []) {
    if (data.some((metric) => metric.descriptor.name.startsWith('gen_ai.'))) scopes.set(`meter ${scope.name}`, { kind: 'meter', scope });
  }
  const found: Violation[] = [];
  for (const { kind, scope } of scopes.values()) {
    const where = `${kind} scope "${scope.name}"`;
    if (!scope.version) found.push({ where, rule: 'has no version' });
    if (scope.schemaUrl !== SEMCONV_SCHEMA_URL) found.push({ where, rule: `schema URL must be ${SEMCONV_SCHEMA_URL}, is ${String(scope.schemaUrl)}` });
  }
  return found;
}
