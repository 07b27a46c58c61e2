/**
 * The metric catalog against the models it follows: every gen_ai.* entry is defined by exactly the
 * conventions its schema URL names, in each mode that records it (the current model at e9de14b for
 * the default mode's names; for the v1.41 mode's, v1.41.0 keeps what it defines and the rest come
 * from the development channel at fe5608e), with that model's instrument, unit, value type and
 * advised buckets, every required attribute listed, and no gen_ai.* / error.type attribute the model
 * does not use.
 */
import { describe, expect, it } from 'vitest';
import { GENAI_DEV_SCHEMA_URL, SEMCONV_SCHEMA_URL } from '../../src/otel/encoding/index.js';
import { METRIC_CATALOG } from '../../src/otel/metrics/index.js';
import { loadDevModel } from '../support/semconv/devModel.js';
import { metricDefinition, type MetricModel } from '../support/semconv/metricDefinitions.js';
import { loadSemconvModel } from '../support/semconv/index.js';

const genai = METRIC_CATALOG.filter((spec) => spec.name.startsWith('gen_ai.'));

/** The models a catalog entry is judged by: those of the modes that record it. */
function modelsOf(spec: (typeof genai)[number]): MetricModel[] {
  if (spec.names === 'current') return ['current'];
  if (spec.names === 'v1.41') return ['v1.41'];
  return ['current', 'v1.41'];
}

describe('the gen_ai.* catalog entries', () => {
  it('name the schema URL of the model that defines them, and the development channel is the vendored one', () => {
    expect(loadDevModel().schemaUrl).toBe(GENAI_DEV_SCHEMA_URL);
    const model = loadSemconvModel();
    const judged = genai.flatMap((spec) => modelsOf(spec).map((by) => [`${spec.name} (${by})`, spec, by] as const));
    expect(Object.fromEntries(judged.map(([key, spec, by]) => [key, [spec.schemaUrl ?? SEMCONV_SCHEMA_URL, metricDefinition(model, spec.name, by)?.schemaUrl]]))).toEqual(
      Object.fromEntries(judged.map(([key, spec]) => [key, [spec.schemaUrl ?? SEMCONV_SCHEMA_URL, spec.schemaUrl ?? SEMCONV_SCHEMA_URL]])),
    );
    expect(genai.filter((spec) => spec.schemaUrl === GENAI_DEV_SCHEMA_URL).map((spec) => spec.name)).toEqual([
      'gen_ai.client.inference.usage.input_tokens',
      'gen_ai.client.inference.usage.output_tokens',
      'gen_ai.client.inference.usage.cache_read.input_tokens',
      'gen_ai.client.inference.usage.cache_write.input_tokens',
      'gen_ai.client.inference.usage.reasoning.output_tokens',
      'gen_ai.client.inference.duration',
      'gen_ai.client.inference.time_to_first_chunk',
      'gen_ai.client.inference.time_per_output_chunk',
      'gen_ai.invocation.duration',
      'gen_ai.invoke_agent.duration',
      'gen_ai.invoke_agent.inference_calls',
      'gen_ai.invoke_agent.tool_calls',
      'gen_ai.execute_tool.duration',
      'gen_ai.workflow.duration',
    ]);
  });

  it("carry their model's instrument, unit, value type, buckets and attributes", () => {
    const model = loadSemconvModel();
    const problems: string[] = [];
    const judged = genai.flatMap((spec) => modelsOf(spec).map((by) => [spec, by] as const));
    for (const [spec, by] of judged) {
      const definition = metricDefinition(model, spec.name, by);
      if (!definition) {
        problems.push(`${spec.name}: not in the ${by} model`);
        continue;
      }
      const { group } = definition;
      if (group.instrument !== spec.kind) problems.push(`${spec.name}: instrument ${spec.kind}, model ${group.instrument}`);
      if (group.unit !== spec.unit) problems.push(`${spec.name}: unit ${spec.unit}, model ${group.unit}`);
      if (group.valueType !== spec.valueType) problems.push(`${spec.name}: value type ${spec.valueType}, model ${group.valueType}`);
      if (JSON.stringify(spec.buckets) !== JSON.stringify(definition.boundaries)) problems.push(`${spec.name}: buckets ${JSON.stringify(spec.buckets)}, model ${JSON.stringify(definition.boundaries)}`);
      for (const use of group.attributes.values()) {
        if (use.requirement === 'required' && !spec.attributes.includes(use.id)) problems.push(`${spec.name}: required ${use.id} not listed`);
      }
      for (const key of spec.attributes) {
        if (!key.startsWith('footprint.') && !group.attributes.has(key)) problems.push(`${spec.name}: ${key} is not an attribute of the model's metric`);
      }
    }
    expect(problems).toEqual([]);
  });
});
