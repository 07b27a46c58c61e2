/**
 * The conventions' current model (semantic-conventions-genai at e9de14b, the excerpt vendored in
 * test/fixtures/semconv-genai-e9de14b), read from its own `definition/2` YAML: the span types and
 * refinements, the metrics (metrics.yaml at the pin, with the token counters of token-metrics.yaml at
 * 066d4a7) and the events, with their `ref_group` chains resolved, as the Group shape model.ts gives,
 * and the registry entries v1.41 lacks (or typed otherwise) over v1.41's registry. spanRules.ts judges
 * the default mode's spans with it (span types by operation, names by the model's name notes, events),
 * metricRules.ts its metrics (metricDefinitions.ts).
 */
import type { Attributes } from '@opentelemetry/api';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { GENAI_TOKEN_METRICS_FIXTURE_DIR } from './devModel.js';
import { loadSemconvModel, overrideUse, type AttributeDefinition, type AttributeUse, type Group, type SemconvModel } from './model.js';

export const CURRENT_MODEL_COMMIT = 'e9de14bafd9725937c6b0c219897260074a2896c';
export const CURRENT_FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/semconv-genai-e9de14b/', import.meta.url));
/** The schema URL of the current model (its manifest.yaml; see the fixture's README). */
export const CURRENT_SCHEMA_URL = 'https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev';

interface RawRef {
  ref?: string;
  ref_group?: string;
  requirement_level?: string | Record<string, string>;
  sampling_relevant?: boolean;
}

interface RawSpans {
  attribute_groups: Array<{ id: string; attributes: RawRef[] }>;
  spans: Array<{ type: string; kind: string; attributes: RawRef[] }>;
  span_refinements: Array<{ id: string; ref: string; attributes: RawRef[] }>;
}

interface RawMetrics {
  attribute_groups?: Array<{ id: string; attributes: RawRef[] }>;
  metrics: Array<{ name: string; instrument: string; unit: string; annotations?: { code_generation?: { metric_value_type?: string } }; attributes?: RawRef[] }>;
}

interface RawEvents {
  events: Array<{ name: string; attributes?: RawRef[] }>;
}

/** The model's metric files: metrics.yaml at the pin, and the token counters' file (not stored at the pin; the fixture's README). */
const METRIC_FILES = [`${CURRENT_FIXTURE_DIR}model/gen-ai/metrics-excerpt.yaml`, `${GENAI_TOKEN_METRICS_FIXTURE_DIR}model/gen-ai/token-metrics.yaml`];

let cached: SemconvModel | undefined;

export function loadCurrentModel(): SemconvModel {
  cached ??= build();
  return cached;
}

function build(): SemconvModel {
  const core = loadSemconvModel();
  const raw = parse(readFileSync(`${CURRENT_FIXTURE_DIR}model/gen-ai/spans-excerpt.yaml`, 'utf8')) as RawSpans;
  const registry = parse(readFileSync(`${CURRENT_FIXTURE_DIR}model/gen-ai/registry-excerpt.yaml`, 'utf8')) as { attributes: Array<{ key: string; type: string; stability: string }> };
  const attributes = new Map(core.attributes);
  for (const entry of registry.attributes) {
    const definition: AttributeDefinition = { id: entry.key, type: entry.type, members: [], stability: entry.stability, deprecated: false };
    attributes.set(entry.key, definition);
  }
  const metricFiles = METRIC_FILES.map((file) => parse(readFileSync(file, 'utf8')) as RawMetrics);
  const events = parse(readFileSync(`${CURRENT_FIXTURE_DIR}model/gen-ai/events-excerpt.yaml`, 'utf8')) as RawEvents;
  const sets = new Map([...raw.attribute_groups, ...metricFiles.flatMap((f) => f.attribute_groups ?? [])].map((g) => [g.id, g.attributes]));
  const resolve = (entries: RawRef[], into = new Map<string, AttributeUse>()): Map<string, AttributeUse> => {
    for (const entry of entries) {
      if (entry.ref_group === undefined) overrideUse(into, entry.ref!, entry);
      // An event's `ref_group: span.gen_ai.client.inference` takes that span type's attributes as resolved.
      else if (groups.has(entry.ref_group)) for (const [key, use] of groups.get(entry.ref_group)!.attributes) into.set(key, use);
      else resolve(sets.get(entry.ref_group) ?? missing(entry.ref_group), into);
    }
    return into;
  };
  const groups = new Map<string, Group>();
  for (const span of raw.spans) {
    groups.set(`span.${span.type}`, { id: `span.${span.type}`, type: 'span', spanKind: span.kind, deprecated: false, attributes: resolve(span.attributes) });
  }
  for (const refinement of raw.span_refinements) {
    const base = groups.get(`span.${refinement.ref}`) ?? missing(refinement.ref);
    groups.set(`span.${refinement.id}`, { ...base, id: `span.${refinement.id}`, attributes: resolve(refinement.attributes, new Map(base.attributes)) });
  }
  for (const file of metricFiles) {
    for (const metric of file.metrics) {
      const id = `metric.${metric.name}`;
      const valueType = metric.annotations?.code_generation?.metric_value_type;
      groups.set(id, { id, type: 'metric', metricName: metric.name, instrument: metric.instrument, unit: metric.unit, valueType, deprecated: false, attributes: resolve(metric.attributes ?? []) });
    }
  }
  for (const event of events.events) {
    const id = `event.${event.name}`;
    groups.set(id, { id, type: 'event', eventName: event.name, deprecated: false, attributes: resolve(event.attributes ?? []) });
  }
  const live = new Set(events.events.map((event) => event.name));
  return {
    attributes,
    groups,
    group: (id) => groups.get(id) ?? missing(id),
    metric: (name) => groups.get(`metric.${name}`),
    eventNames: () => ({ live, deprecated: new Set<string>() }),
  };
}

function missing(id: string): never {
  throw new Error(`semconv-genai current model: '${id}' is not in the vendored excerpt`);
}

/** The tool the runtime answers with a skill's instructions: the conventions' load_skill form of execute_tool. */
const SKILL_LOAD_TOOL = 'read_skill';

/** The current model's span type of a GenAI span, by operation and tool. */
export function currentSpanGroupId(attributes: Attributes): string | undefined {
  switch (attributes['gen_ai.operation.name']) {
    case 'chat':
      return 'span.gen_ai.client.inference';
    case 'invoke_agent':
    case 'invoke_workflow':
      return 'span.gen_ai.invocation.internal';
    case 'execute_tool':
      return attributes['gen_ai.tool.name'] === SKILL_LOAD_TOOL ? 'span.gen_ai.execute_tool.load_skill.internal' : 'span.gen_ai.execute_tool.internal';
    default:
      return undefined;
  }
}

/** The span name the current model's name notes give. */
export function currentSpanName(attributes: Attributes): string {
  const operation = String(attributes['gen_ai.operation.name']);
  const subject = (key: string): string[] => (attributes[key] === undefined ? [] : [String(attributes[key])]);
  switch (operation) {
    case 'chat':
      return [operation, ...subject('gen_ai.request.model')].join(' ');
    case 'execute_tool':
      return [operation, ...subject('gen_ai.tool.name'), ...subject('gen_ai.skill.name')].join(' ');
    default: {
      // `{operation} {workflow name}`, else `{operation} {agent name}`, else `{operation}`.
      const named = subject('gen_ai.workflow.name');
      return [operation, ...(named.length > 0 ? named : subject('gen_ai.agent.name'))].join(' ');
    }
  }
}
