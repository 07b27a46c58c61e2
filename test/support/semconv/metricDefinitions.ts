/**
 * Where a gen_ai.* metric is defined: v1.41.0 for everything it defines (kept as the source for
 * those), else the pinned development channel. Each definition brings its group (instrument, unit,
 * value type, attribute requirement levels), its advised buckets and the schema URL of its model,
 * so the metric and scope rules judge every metric by the conventions it follows.
 */
import { specBucketBoundaries } from './buckets.js';
import { GENAI_DEV_FIXTURE_DIR, loadDevModel } from './devModel.js';
import { SEMCONV_SCHEMA_URL, SEMCONV_VERSION, type Group, type SemconvModel } from './model.js';

export interface MetricDefinition {
  group: Group;
  boundaries?: number[];
  /** The schema URL of the conventions that define it (the meter scope must carry it). */
  schemaUrl: string;
  /** Which model, for messages: 'v1.41.0' or 'gen-ai-dev'. */
  release: string;
}

export function metricDefinition(model: SemconvModel, name: string): MetricDefinition | undefined {
  const core = model.metric(name);
  if (core) return { group: core, boundaries: specBucketBoundaries().get(name), schemaUrl: SEMCONV_SCHEMA_URL, release: `v${SEMCONV_VERSION}` };
  const dev = loadDevModel();
  const group = dev.metric(name);
  if (!group) return undefined;
  return { group, boundaries: specBucketBoundaries(GENAI_DEV_FIXTURE_DIR).get(name), schemaUrl: dev.schemaUrl, release: 'gen-ai-dev' };
}
