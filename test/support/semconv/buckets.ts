/**
 * The explicit bucket boundaries the GenAI metrics documents advise per histogram. They live only in
 * the prose of docs/gen-ai/gen-ai-metrics.md (the YAML has none), in v1.41 and in the development
 * channel alike, so they are read from there: each "### Metric: `name`" section names its boundaries
 * as "ExplicitBucketBoundaries] of [ … ]".
 */
import { readFileSync } from 'node:fs';
import { SEMCONV_FIXTURE_DIR } from './model.js';

const cached = new Map<string, Map<string, number[]>>();

/**
 * The advised boundaries by metric name, from the metrics document of the fixture at `fixtureDir`
 * (default v1.41.0), or from `document`, a path inside it, when its metrics document has another name.
 */
export function specBucketBoundaries(fixtureDir: string = SEMCONV_FIXTURE_DIR, document = 'docs/gen-ai/gen-ai-metrics.md'): Map<string, number[]> {
  const file = `${fixtureDir}${document}`;
  const known = cached.get(file);
  if (known) return known;
  const text = readFileSync(file, 'utf8');
  const boundaries = new Map<string, number[]>();
  for (const section of text.split(/^### Metric: /m).slice(1)) {
    const name = /^`([^`]+)`/.exec(section)?.[1];
    const list = /ExplicitBucketBoundaries\] of\s*\[([^\]]+)\]/.exec(section)?.[1];
    if (name && list) boundaries.set(name, list.split(',').map((item) => Number(item.trim())));
  }
  cached.set(file, boundaries);
  return boundaries;
}
