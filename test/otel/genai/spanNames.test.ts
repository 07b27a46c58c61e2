/**
 * The names a run's semconv mode gives its model and tool spans (src/otel/genai/spanNames.ts): the
 * chat span's cache-write count is gen_ai.usage.cache_write.input_tokens (semantic-conventions-genai
 * #440), cache_creation in v1.41, each once in the both mode; a read_skill call's span is the current
 * model's skill load.
 */
import type { Attributes } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { SemconvMode } from '../../../src/otel/encoding/index.js';
import { SpanNames } from '../../../src/otel/genai/spanNames.js';

const USAGE = { input: 100, output: 20, cacheRead: 40, cacheWrite: 25, reasoning: 5 };
const COUNTS = { 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 20, 'gen_ai.usage.cache_read.input_tokens': 40, 'gen_ai.usage.reasoning.output_tokens': 5 };

describe('SpanNames', () => {
  it.each<[SemconvMode, Attributes]>([
    ['current', { ...COUNTS, 'gen_ai.usage.cache_write.input_tokens': 25 }],
    ['v1.41', { ...COUNTS, 'gen_ai.usage.cache_creation.input_tokens': 25 }],
    ['both', { ...COUNTS, 'gen_ai.usage.cache_write.input_tokens': 25, 'gen_ai.usage.cache_creation.input_tokens': 25 }],
  ])('%s: usage counts, the cache write under its name in the mode', (mode, expected) => {
    expect(new SpanNames(mode).usage(USAGE)).toEqual(expected);
  });

  it('a usage report without cache or reasoning counts has none of them', () => {
    expect(new SpanNames('both').usage({ input: 1, output: 2 })).toEqual({ 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 2 });
  });

  it.each<[SemconvMode, string, Attributes]>([
    ['current', 'execute_tool read_skill billing', { 'gen_ai.skill.name': 'billing' }],
    ['both', 'execute_tool read_skill billing', { 'gen_ai.skill.name': 'billing' }],
    ['v1.41', 'execute_tool read_skill', {}],
  ])('%s: a skill load is named %j', (mode, name, attributes) => {
    const written: Attributes = {};
    expect([new SpanNames(mode).tool({ toolName: 'read_skill', skill: 'billing' }, written), written]).toEqual([name, attributes]);
  });

  it('a tool call with no skill is execute_tool {tool} in every mode', () => {
    const names = (['current', 'v1.41', 'both'] as const).map((mode) => new SpanNames(mode).tool({ toolName: 'lookup' }, {}));
    expect(names).toEqual(['execute_tool lookup', 'execute_tool lookup', 'execute_tool lookup']);
  });
});
