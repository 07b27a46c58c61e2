/**
 * The GenAI conventions' development channel (semantic-conventions-genai at a pinned commit,
 * vendored under test/fixtures/semconv-genai-dev-fe5608e, with the token metrics file of a later
 * commit in test/fixtures/semconv-genai-066d4a7), read from its own YAML. Its files use
 * Weaver's `definition/2` format: top-level `attributes` (the registry), `attribute_groups` and
 * `metrics`, with `ref` / `ref_group` entries instead of v1.41's `groups` and `extends`. Only the
 * metrics are read (the spans still follow v1.41), as the same Group shape model.ts gives.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { overrideUse, type AttributeUse, type Group } from './model.js';

/** The pinned commit of open-telemetry/semantic-conventions-genai (see the fixture's README). */
export const GENAI_DEV_COMMIT = 'fe5608e249d64bc5961329a82f8915fe95ced51a';
export const GENAI_DEV_FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/semconv-genai-dev-fe5608e/', import.meta.url));

/** The token metrics file of a later commit (test/fixtures/semconv-genai-066d4a7/README.md). */
export const GENAI_TOKEN_METRICS_FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/semconv-genai-066d4a7/', import.meta.url));

/** The files holding the metrics and the attribute groups they reference. */
const FILES = [
  GENAI_DEV_FIXTURE_DIR + 'model/gen-ai/metrics.yaml',
  GENAI_DEV_FIXTURE_DIR + 'model/gen-ai/spans.yaml',
  GENAI_TOKEN_METRICS_FIXTURE_DIR + 'model/gen-ai/token-metrics.yaml',
];

interface RawRef {
  ref?: string;
  ref_group?: string;
  requirement_level?: string | Record<string, string>;
  sampling_relevant?: boolean;
}

interface RawMetric {
  name: string;
  instrument: string;
  unit: string;
  deprecated?: unknown;
  annotations?: { code_generation?: { metric_value_type?: string } };
  attributes?: RawRef[];
}

interface RawFile {
  attribute_groups?: Array<{ id: string; attributes?: RawRef[] }>;
  metrics?: RawMetric[];
}

export interface DevModel {
  /** The channel's schema URL, from model/manifest.yaml. */
  schemaUrl: string;
  metric(name: string): Group | undefined;
  metricNames(): string[];
  /** Whether a gen_ai.* key is an attribute of one of the channel's metrics (gen_ai.token.modality is, and not in v1.41). */
  usesAttribute(key: string): boolean;
}

let cached: DevModel | undefined;

export function loadDevModel(): DevModel {
  cached ??= build();
  return cached;
}

function read<T>(file: string): T {
  return parse(readFileSync(file, 'utf8')) as T;
}

function build(): DevModel {
  const files = FILES.map((file) => read<RawFile>(file));
  const groups = new Map(files.flatMap((f) => f.attribute_groups ?? []).map((g) => [g.id, g.attributes ?? []]));
  /** A list of refs with every ref_group expanded in place; a later entry overrides an earlier one. */
  const resolve = (entries: RawRef[], into = new Map<string, AttributeUse>()): Map<string, AttributeUse> => {
    for (const entry of entries) {
      if (entry.ref_group !== undefined) {
        const group = groups.get(entry.ref_group);
        if (!group) throw new Error(`semconv-genai model: attribute group '${entry.ref_group}' is not in the vendored files`);
        resolve(group, into);
        continue;
      }
      overrideUse(into, entry.ref!, entry);
    }
    return into;
  };
  const metrics = new Map<string, Group>();
  for (const raw of files.flatMap((f) => f.metrics ?? [])) {
    metrics.set(raw.name, {
      id: `metric.${raw.name}`,
      type: 'metric',
      metricName: raw.name,
      instrument: raw.instrument,
      unit: raw.unit,
      valueType: raw.annotations?.code_generation?.metric_value_type,
      deprecated: raw.deprecated !== undefined,
      attributes: resolve(raw.attributes ?? []),
    });
  }
  const manifest = read<{ schema_url: string }>(GENAI_DEV_FIXTURE_DIR + 'model/manifest.yaml');
  return {
    schemaUrl: manifest.schema_url,
    metric: (name) => metrics.get(name),
    metricNames: () => [...metrics.keys()],
    usesAttribute: (key) => [...metrics.values()].some((group) => group.attributes.has(key)),
  };
}
