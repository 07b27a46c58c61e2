/**
 * Rules for any attribute map (span, span event or metric point): names that v1.41 deprecates or
 * does not define in the gen_ai namespace (unless a development-channel metric uses them), values of the registry's type, enum values among the
 * well-known members, finish reasons among the output-message schema's FinishReason values, and the
 * structured message attributes valid against their JSON schemas.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { readFileSync } from 'node:fs';
import { loadDevModel } from './devModel.js';
import { SEMCONV_FIXTURE_DIR, type AttributeDefinition, type SemconvModel } from './model.js';
import { SCHEMA_ATTRIBUTES, schemaProblems } from './schemas.js';
import type { Violation } from './violation.js';

const FINISH_REASONS = 'gen_ai.response.finish_reasons';

let finishReasons: string[] | undefined;

/** The FinishReason values the v1.41 output-message schema defines. */
function specFinishReasons(): string[] {
  if (finishReasons) return finishReasons;
  const schema = JSON.parse(readFileSync(`${SEMCONV_FIXTURE_DIR}docs/gen-ai/gen-ai-output-messages.json`, 'utf8')) as {
    $defs: { FinishReason: { enum: string[] } };
  };
  finishReasons = schema.$defs.FinishReason.enum;
  return finishReasons;
}

export function attributeViolations(model: SemconvModel, where: string, attributes: Attributes): Violation[] {
  const found: Violation[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    const definition = model.attributes.get(key);
    if (!definition) {
      if (key.startsWith('gen_ai.') && !loadDevModel().usesAttribute(key)) found.push({ where, attribute: key, rule: 'not defined in the v1.41 registry' });
      continue;
    }
    if (definition.deprecated) found.push({ where, attribute: key, rule: 'deprecated in v1.41' });
    const typeRule = typeViolation(definition, value);
    if (typeRule) found.push({ where, attribute: key, rule: typeRule });
    if (key === FINISH_REASONS && Array.isArray(value)) {
      const unknown = value.filter((reason) => !specFinishReasons().includes(String(reason)));
      if (unknown.length > 0) found.push({ where, attribute: key, rule: `values ${JSON.stringify(unknown)} are not FinishReason values ${JSON.stringify(specFinishReasons())}` });
    }
    if (SCHEMA_ATTRIBUTES.includes(key)) {
      for (const problem of schemaProblems(key, value)) found.push({ where, attribute: key, rule: `fails the v1.41 JSON schema: ${problem}` });
    }
  }
  return found;
}

function typeViolation(definition: AttributeDefinition, value: AttributeValue): string | undefined {
  const shown = JSON.stringify(value);
  switch (definition.type) {
    case 'any':
      return undefined;
    case 'string':
      return typeof value === 'string' ? undefined : `must be a string, is ${shown}`;
    case 'int':
      return Number.isInteger(value) ? undefined : `must be an int, is ${shown}`;
    case 'double':
      return typeof value === 'number' ? undefined : `must be a double, is ${shown}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be a boolean, is ${shown}`;
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? undefined : `must be a string[], is ${shown}`;
    case 'enum': {
      // error.type lists only its `_OTHER` fallback: its values are the instrumentation's own.
      if (definition.members.every((member) => member.value === '_OTHER')) return typeof value === 'string' ? undefined : `must be a string, is ${shown}`;
      const live = definition.members.filter((member) => !member.deprecated).map((member) => member.value);
      if (live.includes(value as string | number)) return undefined;
      const deprecated = definition.members.some((member) => member.deprecated && member.value === value);
      return deprecated ? `value ${shown} is deprecated` : `value ${shown} is not a well-known value (${live.join(', ')})`;
    }
    default:
      return `has registry type ${definition.type}, which this checker does not know`;
  }
}
