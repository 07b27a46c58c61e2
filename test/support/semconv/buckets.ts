/**
 * The explicit bucket boundaries the v1.41 GenAI metrics document advises per histogram. They live
 * only in the prose of docs/gen-ai/gen-ai-metrics.md (the YAML has none), so they are read from there:
 * each "### Metric: `name`" section names its boundaries as "ExplicitBucketBoundaries] of [ … ]".
 */
import { readFileSync } from 'node:fs';
import { SEMCONV_FIXTURE_DIR } from './model.js';

let cached: Map<string, number[]> | undefined;

export function specBucketBoundaries(): Map<string, number[]> {
  if (cached) return cached;
  const text = readFileSync(`${SEMCONV_FIXTURE_DIR}docs/gen-ai/gen-ai-metrics.md`, 'utf8');
  cached = new Map();
  for (const section of text.split(/^### Metric: /m).slice(1)) {
    const name = /^`([^`]+)`/.exec(section)?.[1];
    const list = /ExplicitBucketBoundaries\] of\s*\[([^\]]+)\]/.exec(section)?.[1];
    if (name && list) cached.set(name, list.split(',').map((item) => Number(item.trim())));
  }
  return cached;
}
