/**
 * Reads metric data points out of OTLP JSON ExportMetricsServiceRequests (a metrics.jsonl line, or a
 * JSON body), so tests can check exported counters without an OTLP decoder.
 */
export interface JsonPoint {
  attributes: Record<string, string | number | boolean>;
  /** Counter value (asInt/asDouble) or histogram count. */
  value: number;
}

interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
}

interface JsonMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints: { attributes?: KeyValue[]; asInt?: number | string; asDouble?: number }[]; aggregationTemporality?: number };
  histogram?: { dataPoints: { attributes?: KeyValue[]; count: number | string }[]; aggregationTemporality?: number };
}

export interface JsonMetricsRequest {
  resourceMetrics: { resource: { attributes: KeyValue[] }; scopeMetrics: { scope: { name: string }; metrics: JsonMetric[] }[] }[];
}

export function metricsIn(request: JsonMetricsRequest): JsonMetric[] {
  return request.resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
}

export function pointsOf(request: JsonMetricsRequest, name: string): JsonPoint[] {
  const points: JsonPoint[] = [];
  for (const metric of metricsIn(request)) {
    if (metric.name !== name) continue;
    for (const p of metric.sum?.dataPoints ?? []) {
      points.push({ attributes: attributesOf(p.attributes), value: Number(p.asInt ?? p.asDouble ?? 0) });
    }
    for (const p of metric.histogram?.dataPoints ?? []) points.push({ attributes: attributesOf(p.attributes), value: Number(p.count) });
  }
  return points;
}

function attributesOf(list: KeyValue[] | undefined): JsonPoint['attributes'] {
  const out: JsonPoint['attributes'] = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? value.boolValue ?? Number(value.intValue ?? value.doubleValue);
  }
  return out;
}
