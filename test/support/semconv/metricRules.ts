/**
 * Rules for exported metric data against the GenAI metric definitions of the model a mode follows
 * (the current model; or v1.41 for what it defines, else the pinned development channel: metricDefinitions.ts): instrument kind, unit, value type and
 * the spec's bucket boundaries per metric; per data point the required attributes, server.port
 * with server.address, the rest present exactly when the scenario says the data exists, and the
 * attribute rules every map gets. Metrics outside gen_ai.* (the project's own) are not judged here.
 */
import { ValueType, type Attributes } from '@opentelemetry/api';
import { DataPointType, type MetricData } from '@opentelemetry/sdk-metrics';
import { attributeViolations } from './attributeRules.js';
import { metricDefinition, type MetricModel } from './metricDefinitions.js';
import type { AttributeUse, SemconvModel } from './model.js';
import type { Violation } from './violation.js';

/** The recommended / conditionally-required attributes whose data exists for a data point. */
export type AvailableOnPoint = (metric: string, attributes: Attributes) => readonly string[];

/** The spec's instrument as an exporter sees it: the data point type (and monotonicity for sums). */
function exportedInstrument(metric: MetricData): string {
  if (metric.dataPointType === DataPointType.HISTOGRAM) return 'histogram';
  if (metric.dataPointType === DataPointType.SUM) return metric.isMonotonic ? 'counter' : 'updowncounter';
  if (metric.dataPointType === DataPointType.GAUGE) return 'gauge';
  return DataPointType[metric.dataPointType].toLowerCase();
}

const VALUE_TYPES: Record<string, ValueType> = { int: ValueType.INT, double: ValueType.DOUBLE };

export function metricViolations(model: SemconvModel, metric: MetricData, available: AvailableOnPoint, metricModel: MetricModel = 'v1.41'): Violation[] {
  const name = metric.descriptor.name;
  const where = `metric ${name}`;
  const definition = metricDefinition(model, name, metricModel);
  if (!definition) return name.startsWith('gen_ai.') ? [{ where, rule: metricModel === 'current' ? 'not a metric of the current model' : 'not a v1.41 or gen-ai-dev metric' }] : [];
  const { group, boundaries } = definition;
  const found: Violation[] = [];
  const { descriptor } = metric;
  const instrument = exportedInstrument(metric);
  if (instrument !== group.instrument) found.push({ where, rule: `instrument must be ${group.instrument}, is ${instrument}` });
  if (descriptor.unit !== group.unit) found.push({ where, rule: `unit must be ${group.unit}, is ${descriptor.unit}` });
  const valueType = VALUE_TYPES[group.valueType ?? ''];
  if (valueType !== undefined && descriptor.valueType !== valueType) found.push({ where, rule: `value type must be ${group.valueType}` });
  for (const point of metric.dataPoints) {
    const at = `${where} ${JSON.stringify(point.attributes)}`;
    if (boundaries && metric.dataPointType === DataPointType.HISTOGRAM) {
      const actual = (point.value as { buckets: { boundaries: number[] } }).buckets.boundaries;
      if (JSON.stringify(actual) !== JSON.stringify(boundaries)) found.push({ where: at, rule: `bucket boundaries must be ${JSON.stringify(boundaries)}` });
    }
    found.push(...attributeViolations(model, at, point.attributes));
    const exists = available(name, point.attributes);
    for (const use of group.attributes.values()) {
      const rule = presenceRule(use, point.attributes, exists);
      if (rule) found.push({ where: at, attribute: use.id, rule });
    }
  }
  return found;
}

function presenceRule(use: AttributeUse, attributes: Attributes, exists: readonly string[]): string | undefined {
  const present = attributes[use.id] !== undefined;
  if (use.requirement === 'required') return present ? undefined : 'missing: required';
  // Whether the measured operation failed is not visible on a point; the agreement tests pair it with spans.
  if (use.id === 'error.type') return undefined;
  if (use.id === 'server.port') {
    const withAddress = attributes['server.address'] !== undefined;
    if (withAddress !== present) return withAddress ? 'missing: conditionally required (server.address is set)' : 'set without server.address';
    return undefined;
  }
  if (exists.includes(use.id) && !present) return `missing: ${use.requirement.replace('_', ' ')} and the data exists`;
  if (!exists.includes(use.id) && present) return `set though the scenario has no data for it (${use.requirement.replace('_', ' ')})`;
  return undefined;
}
