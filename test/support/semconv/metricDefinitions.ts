/**
 * Where a gen_ai.* metric is defined, by the model a semconv mode follows. The current model (the
 * default mode): semantic-conventions-genai at e9de14b (currentModel.ts), its advised buckets from the
 * fixture's excerpt of the metric pages. The v1.41 names: v1.41.0 for everything it defines (kept as
 * the source for those), else the development channel at fe5608e, whose names that mode keeps. Each
 * definition brings its group (instrument, unit, value type, attribute requirement levels), its
 * advised buckets and the schema URL of its model, so the metric and scope rules judge every metric
 * by the conventions it follows.
 */
import { specBucketBoundaries } from './buckets.js';
import { CURRENT_FIXTURE_DIR, CURRENT_SCHEMA_URL, loadCurrentModel } from './currentModel.js';
import { GENAI_DEV_FIXTURE_DIR, loadDevModel } from './devModel.js';
import { SEMCONV_SCHEMA_URL, SEMCONV_VERSION, type Group, type SemconvModel } from './model.js';

export interface MetricDefinition {
  group: Group;
  boundaries?: number[];
  /** The schema URL of the conventions that define it (the meter scope must carry it). */
  schemaUrl: string;
  /** Which model, for messages: 'v1.41.0', 'gen-ai-dev' (fe5608e) or 'gen-ai@e9de14b'. */
  release: string;
}

/** Which model a metric is judged by: the current one (the default mode's) or the v1.41 names'. */
export type MetricModel = 'current' | 'v1.41';

/** The bucket advice of the current model: the fixture's excerpt of its metric pages. */
const CURRENT_BUCKETS_DOCUMENT = 'docs/gen-ai/metric-buckets-excerpt.md';

export function metricDefinition(model: SemconvModel, name: string, metricModel: MetricModel = 'v1.41'): MetricDefinition | undefined {
  if (metricModel === 'current') {
    const group = loadCurrentModel().metric(name);
    if (!group) return undefined;
    return { group, boundaries: specBucketBoundaries(CURRENT_FIXTURE_DIR, CURRENT_BUCKETS_DOCUMENT).get(name), schemaUrl: CURRENT_SCHEMA_URL, release: 'gen-ai@e9de14b' };
  }
  const core = model.metric(name);
  if (core) return { group: core, boundaries: specBucketBoundaries().get(name), schemaUrl: SEMCONV_SCHEMA_URL, release: `v${SEMCONV_VERSION}` };
  const dev = loadDevModel();
  const group = dev.metric(name);
  if (!group) return undefined;
  return { group, boundaries: specBucketBoundaries(GENAI_DEV_FIXTURE_DIR).get(name), schemaUrl: dev.schemaUrl, release: 'gen-ai-dev' };
}
