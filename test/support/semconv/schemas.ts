/**
 * The v1.41 JSON schemas of the structured GenAI attributes (input/output messages, system
 * instructions, tool definitions), compiled once with ajv. On spans these attributes travel as JSON
 * strings, so a value is parsed first: text that is not JSON fails like a schema mismatch does.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { SEMCONV_FIXTURE_DIR } from './model.js';

const SCHEMA_FILES: Record<string, string> = {
  'gen_ai.input.messages': 'gen-ai-input-messages.json',
  'gen_ai.output.messages': 'gen-ai-output-messages.json',
  'gen_ai.system_instructions': 'gen-ai-system-instructions.json',
  'gen_ai.tool.definitions': 'gen-ai-tool-definitions.json',
};

export const SCHEMA_ATTRIBUTES = Object.keys(SCHEMA_FILES);

let validators: Map<string, ValidateFunction> | undefined;

function compiled(): Map<string, ValidateFunction> {
  if (validators) return validators;
  // Draft-07 mode: tool definitions reference the draft-07 meta-schema, which ajv ships in this mode.
  // The schemas mark inline blob content with format "binary", a content hint rather than a check.
  const ajv = new Ajv({ allErrors: true, strict: false, formats: { binary: true } });
  validators = new Map(
    Object.entries(SCHEMA_FILES).map(([attribute, file]) => {
      const schema = JSON.parse(readFileSync(`${SEMCONV_FIXTURE_DIR}docs/gen-ai/${file}`, 'utf8')) as object;
      return [attribute, ajv.compile(schema)];
    }),
  );
  return validators;
}

/** Problems of one structured attribute's value against its schema; [] when it conforms. */
export function schemaProblems(attribute: string, value: unknown): string[] {
  const validate = compiled().get(attribute);
  if (!validate) return [];
  let document: unknown = value;
  if (typeof value === 'string') {
    try {
      document = JSON.parse(value);
    } catch {
      return [`is not JSON (starts ${JSON.stringify(value.slice(0, 40))})`];
    }
  }
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}
