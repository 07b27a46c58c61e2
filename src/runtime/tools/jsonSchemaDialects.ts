/**
 * A JSON Schema checked once, when a tool is given: its dialect (draft-07, 2019-09 or 2020-12, by its
 * `$schema`; none means draft-07), the dialect's meta-schema, then a compile on an Ajv instance of its
 * own that is dropped at once (which finds unresolvable `$ref`s and patterns that are no regular
 * expression). Kept here: the verdicts of the last few schemas by their text, and for those whose checks
 * are linear in the data their compiled validators (bounded alike); the meta-schema validators below only ever
 * validate schemas as data, so a schema with an `$id` builds any number of times, a refused schema is
 * refused every time, and a built agent that is dropped leaves nothing behind. Arguments are checked
 * against the schema in this process when every check of it is linear in the data (no regular
 * expression, no uniqueItems, no reference), else on the schema worker (schemaWorker.ts), within a
 * deadline.
 */
import { Ajv, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { AJV_MODULES, SCHEMA_CHECK_DEADLINE_MS, SchemaWorker, type JsonSchemaDialect, type WorkerVerdict } from './schemaWorker.js';

export type { JsonSchemaDialect };


/** `$schema` values, without a trailing '#' and with http: for https:, as the dialect they name. */
const DIALECT_OF_URI: Record<string, JsonSchemaDialect> = {
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'http://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft/2020-12/schema': '2020-12',
};

/**
 * Formats are not checked (as before: Ajv without ajv-formats knows none, and would warn on the
 * console for each): a Standard Schema library checks its own; the schema is checked as given, strict
 * mode off, every error reported.
 */
export const AJV_OPTIONS: Options = { allErrors: true, strict: false, validateFormats: false, validateSchema: false };

const AJV_CLASSES = { 'draft-07': Ajv, '2019-09': Ajv2019, '2020-12': Ajv2020 } as const;

/** The dialect's meta-schema validator: one per dialect and process, holding no user schema. */
const metaValidators = new Map<JsonSchemaDialect, Ajv>();

function metaValidator(dialect: JsonSchemaDialect): Ajv {
  let ajv = metaValidators.get(dialect);
  if (!ajv) metaValidators.set(dialect, (ajv = new AJV_CLASSES[dialect]({ allErrors: true, strict: false, validateFormats: false })));
  return ajv;
}

/** The dialect a schema's `$schema` names (none: draft-07), or undefined when the validator knows none by that name. */
export function dialectOf(schema: Record<string, unknown>): JsonSchemaDialect | undefined {
  const uri = schema.$schema;
  if (uri === undefined) return 'draft-07';
  return typeof uri === 'string' ? DIALECT_OF_URI[uri.replace(/#$/, '').replace(/^https:/, 'http:')] : undefined;
}

/** A schema that passed the check: what the worker is sent with each call. */
export interface CheckedJsonSchema {
  dialect: JsonSchemaDialect;
  /** The schema as JSON text: the worker's key for its compiled validator. */
  text: string;
  /**
   * Set when every check of the schema takes time linear in the data (linearSchema): the validator,
   * compiled in this process on an Ajv of its own, kept by the CheckedJsonSchema (dropped with it).
   */
  inProcess?: (data: unknown) => WorkerVerdict;
}

/**
 * Keywords whose check can take time out of proportion to the data, or not end: a regular
 * expression (backtracking), pairwise equality over an array, a reference (it can refer to itself).
 * A schema with none of them is checked in this process; one with any, on the worker.
 */
const UNBOUNDED_KEYWORDS = new Set(['pattern', 'patternProperties', 'uniqueItems', '$ref', '$dynamicRef', '$recursiveRef']);

/** Whether the schema uses no UNBOUNDED_KEYWORDS anywhere (every check is then linear in the data). */
function linearSchema(schema: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (Array.isArray(schema)) return schema.every((item) => linearSchema(item, depth + 1));
  if (typeof schema !== 'object' || schema === null) return true;
  for (const [key, value] of Object.entries(schema)) {
    if (UNBOUNDED_KEYWORDS.has(key)) return false;
    // under `properties` (and the like) the keys are data names, not keywords: a property named "pattern" is fine
    if (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'dependentSchemas') {
      if (typeof value === 'object' && value !== null && !Object.values(value).every((sub) => linearSchema(sub, depth + 1))) return false;
    } else if (!linearSchema(value, depth + 1)) return false;
  }
  return true;
}

/**
 * The verdicts of the last MAX_VERDICTS schemas checked, by their text (an agent built per request
 * checks the same schemas again and again): a dialect, or the message of a refusal. The same text
 * always gets the same verdict, so a refused schema stays refused.
 */
const verdicts = new Map<string, JsonSchemaDialect | { refused: string }>();
const MAX_VERDICTS = 256;

/** Checks a JSON Schema; throws an Error saying what is wrong with it. */
export function checkJsonSchema(schema: Record<string, unknown>): CheckedJsonSchema {
  const text = JSON.stringify(schema);
  let verdict = verdicts.get(text);
  if (verdict === undefined) {
    try {
      verdict = dialectChecked(schema);
    } catch (error) {
      verdict = { refused: (error as Error).message };
    }
    if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
  } else {
    verdicts.delete(text);
  }
  verdicts.set(text, verdict);
  if (typeof verdict === 'object') throw new Error(verdict.refused);
  if (linearSchema(schema)) return { dialect: verdict, text, inProcess: compiledHere(verdict, schema, text) };
  schemaWorker();
  return { dialect: verdict, text };
}

/**
 * In-process validators of the last MAX_VERDICTS linear schemas, by their text (an agent built per
 * request compiles its schemas once, not per build); bounded like the verdicts, so memory stays flat.
 */
const compiled = new Map<string, (data: unknown) => WorkerVerdict>();

/** The schema's validator in this process, giving the worker's verdicts (the same Ajv, the same options and messages). */
function compiledHere(dialect: JsonSchemaDialect, schema: Record<string, unknown>, text: string): (data: unknown) => WorkerVerdict {
  let check = compiled.get(text);
  if (check === undefined) {
    // an Ajv of its own: a schema's $id never meets another schema's
    const ajv = new AJV_CLASSES[dialect](AJV_OPTIONS);
    const validate = ajv.compile(schema);
    check = (data) => (validate(data) ? { ok: true } : { ok: false, message: ajv.errorsText(validate.errors, { dataVar: 'args' }), paths: validate.errors!.map((e) => e.instancePath) });
    if (compiled.size >= MAX_VERDICTS) compiled.delete(compiled.keys().next().value!);
  } else {
    compiled.delete(text);
  }
  compiled.set(text, check);
  return check;
}

/** The schema's dialect once it passed the meta-schema and compiled; throws why not. */
function dialectChecked(schema: Record<string, unknown>): JsonSchemaDialect {
  const known = dialectOf(schema);
  if (!known) {
    throw new Error(
      `its $schema ${JSON.stringify(schema.$schema)?.slice(0, 200)} is not a dialect the validator knows: use draft-07 ("http://json-schema.org/draft-07/schema#") or 2020-12 ("https://json-schema.org/draft/2020-12/schema"), or leave $schema out (draft-07)`,
    );
  }
  const meta = metaValidator(known);
  if (!meta.validateSchema(schema)) throw new Error(`it is not a valid ${known} JSON Schema: ${meta.errorsText(meta.errors, { dataVar: 'schema' })}`);
  new AJV_CLASSES[known](AJV_OPTIONS).compile(schema);
  return known;
}

let worker: SchemaWorker | undefined;

/** The process's schema worker, started at the first schema checked, so a tool's first call does not wait for it. */
function schemaWorker(): SchemaWorker {
  if (!worker) {
    worker = new SchemaWorker(AJV_MODULES, AJV_OPTIONS as Record<string, unknown>, SCHEMA_CHECK_DEADLINE_MS);
    worker.warm();
  }
  return worker;
}

/**
 * Checks `data` against a checked schema: in this process when every check of it is linear in the
 * data, else on the schema worker, within SCHEMA_CHECK_DEADLINE_MS.
 */
export function checkArguments(schema: CheckedJsonSchema, data: unknown): WorkerVerdict | Promise<WorkerVerdict> {
  return schema.inProcess ? schema.inProcess(data) : schemaWorker().check(schema.dialect, schema.text, data);
}
