/**
 * The pinned GenAI semantic-conventions model (v1.41.0, vendored under test/fixtures/semconv-v1.41.0)
 * read from its own YAML: the attribute registry (types, enum members, deprecations) and the span,
 * metric and event groups with their `extends` chains resolved, so every rule the checker applies
 * comes from the spec's files rather than from a copy typed into a test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The release the fixture holds; telemetry following it names this schema URL. */
export const SEMCONV_VERSION = '1.41.0';
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

export const SEMCONV_FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/semconv-v1.41.0/', import.meta.url));

/** The YAML files of the model the checker needs (paths as in the semantic-conventions repository). */
const MODEL_FILES = [
  'model/gen-ai/registry.yaml',
  'model/gen-ai/spans.yaml',
  'model/gen-ai/metrics.yaml',
  'model/gen-ai/events.yaml',
  'model/gen-ai/deprecated/registry-deprecated.yaml',
  'model/gen-ai/deprecated/events-deprecated.yaml',
  'model/error/registry.yaml',
  'model/error/deprecated/registry-deprecated.yaml',
  'model/server/registry.yaml',
  'model/exceptions/registry.yaml',
];

export type Requirement = 'required' | 'conditionally_required' | 'recommended' | 'opt_in';

export interface EnumMember {
  value: string | number;
  deprecated: boolean;
}

export interface AttributeDefinition {
  id: string;
  /** 'string', 'int', 'double', 'boolean', 'string[]', …, 'any', or 'enum' (see members). */
  type: string;
  members: EnumMember[];
  stability: string;
  deprecated: boolean;
}

export interface AttributeUse {
  id: string;
  requirement: Requirement;
  /** The spec's condition text for conditionally_required / recommended-with-condition. */
  condition?: string;
  samplingRelevant: boolean;
}

export interface Group {
  id: string;
  type: string;
  spanKind?: string;
  metricName?: string;
  eventName?: string;
  instrument?: string;
  unit?: string;
  valueType?: string;
  deprecated: boolean;
  /** Every attribute the group uses, its own and those of the groups it extends. */
  attributes: Map<string, AttributeUse>;
}

export interface SemconvModel {
  attributes: Map<string, AttributeDefinition>;
  groups: Map<string, Group>;
  /** A span group by id; throws when the model has none (a typo in a test must not pass). */
  group(id: string): Group;
  metric(name: string): Group | undefined;
  eventNames(): { live: Set<string>; deprecated: Set<string> };
}

interface RawAttribute {
  id?: string;
  ref?: string;
  type?: string | { members: { value: string | number; deprecated?: unknown }[] };
  stability?: string;
  deprecated?: unknown;
  requirement_level?: string | Record<string, string>;
  sampling_relevant?: boolean;
}

interface RawGroup {
  id: string;
  type: string;
  extends?: string;
  span_kind?: string;
  metric_name?: string;
  name?: string;
  instrument?: string;
  unit?: string;
  deprecated?: unknown;
  annotations?: { code_generation?: { metric_value_type?: string } };
  attributes?: RawAttribute[];
}

let cached: SemconvModel | undefined;

/** The model, parsed once per test file. */
export function loadSemconvModel(): SemconvModel {
  cached ??= buildModel(MODEL_FILES.flatMap((file) => readGroups(file)));
  return cached;
}

function readGroups(file: string): RawGroup[] {
  const document = parse(readFileSync(SEMCONV_FIXTURE_DIR + file, 'utf8')) as { groups: RawGroup[] };
  return document.groups;
}

function buildModel(raw: RawGroup[]): SemconvModel {
  const attributes = new Map<string, AttributeDefinition>();
  for (const group of raw) {
    for (const attribute of group.attributes ?? []) {
      if (attribute.id !== undefined) attributes.set(attribute.id, definition(attribute.id, attribute));
    }
  }
  const byId = new Map(raw.map((group) => [group.id, group]));
  const groups = new Map<string, Group>();
  const resolve = (id: string): Group => {
    const known = groups.get(id);
    if (known) return known;
    const group = byId.get(id);
    if (!group) throw new Error(`semconv model: group '${id}' is not in the vendored files`);
    const inherited = group.extends ? resolve(group.extends).attributes : new Map<string, AttributeUse>();
    const resolved: Group = {
      id,
      type: group.type,
      spanKind: group.span_kind,
      metricName: group.metric_name,
      eventName: group.type === 'event' ? group.name : undefined,
      instrument: group.instrument,
      unit: group.unit,
      valueType: group.annotations?.code_generation?.metric_value_type,
      deprecated: group.deprecated !== undefined,
      attributes: mergeUses(inherited, group.attributes ?? []),
    };
    groups.set(id, resolved);
    return resolved;
  };
  for (const group of raw) resolve(group.id);
  return {
    attributes,
    groups,
    group(id) {
      return resolve(id);
    },
    metric: (name) => [...groups.values()].find((g) => g.type === 'metric' && g.metricName === name),
    eventNames() {
      const events = [...groups.values()].filter((g) => g.type === 'event' && g.eventName !== undefined);
      return {
        live: new Set(events.filter((g) => !g.deprecated).map((g) => g.eventName!)),
        deprecated: new Set(events.filter((g) => g.deprecated).map((g) => g.eventName!)),
      };
    },
  };
}

function definition(id: string, raw: RawAttribute): AttributeDefinition {
  const members = typeof raw.type === 'object' ? raw.type.members.map((m) => ({ value: m.value, deprecated: m.deprecated !== undefined })) : [];
  return {
    id,
    type: typeof raw.type === 'string' ? raw.type : 'enum',
    members,
    stability: raw.stability ?? 'development',
    deprecated: raw.deprecated !== undefined,
  };
}

/** A group's own uses override what it inherits, key by key (as the spec's tooling resolves them). */
function mergeUses(inherited: Map<string, AttributeUse>, own: RawAttribute[]): Map<string, AttributeUse> {
  const merged = new Map(inherited);
  for (const raw of own) overrideUse(merged, raw.ref ?? raw.id!, raw);
  return merged;
}

/** Sets one attribute use in `uses`: what `own` states overrides the use already there, field by field. */
export function overrideUse(
  uses: Map<string, AttributeUse>,
  id: string,
  own: { requirement_level?: string | Record<string, string>; sampling_relevant?: boolean },
): void {
  const before = uses.get(id);
  const level = own.requirement_level === undefined ? undefined : requirementOf(own.requirement_level);
  uses.set(id, {
    id,
    requirement: level?.requirement ?? before?.requirement ?? 'recommended',
    condition: level ? level.condition : before?.condition,
    samplingRelevant: own.sampling_relevant ?? before?.samplingRelevant ?? false,
  });
}

function requirementOf(level: string | Record<string, string>): { requirement: Requirement; condition?: string } {
  if (typeof level === 'string') return { requirement: level as Requirement };
  const [requirement, condition] = Object.entries(level)[0]!;
  return { requirement: requirement as Requirement, condition };
}
