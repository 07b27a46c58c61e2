/**
 * One mechanism for every schema a user or a server gives: a Standard Schema (zod 4, valibot, arktype:
 * any library implementing https://standardschema.dev) or a JSON Schema (draft-07, 2019-09, 2020-12)
 * becomes a CheckedSchema: the JSON Schema the model is sent, and a validator of what the model sent
 * back. A schema that cannot be both is refused when it is given, with what to do about it.
 *
 * - Standard Schema: the JSON Schema comes from the library through Standard JSON Schema
 *   (`~standard.jsonSchema.input`, draft-07 as the AI SDK asks, else 2020-12): zod 4.2 and later,
 *   arktype 2.1.28 and later, valibot through `toStandardJsonSchema()` of `@valibot/to-json-schema`.
 *   The library validates, in this process (it is the app's code), and its output is what the tool
 *   gets (defaults and transforms applied).
 * - JSON Schema: sent as given; checked once here (jsonSchemaDialects.ts). Arguments are checked in
 *   this process when every check of the schema is linear in the data, else on the schema worker
 *   within a deadline (schemaWorker.ts): a regular expression, uniqueItems or a reference can make a
 *   check take any time, whoever wrote the schema.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { ConfigError, describeError, isThenable } from '../run/index.js';
import { checkArguments, checkJsonSchema } from './jsonSchemaDialects.js';
import type { WorkerVerdict } from './schemaWorker.js';

/** A JSON Schema, as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** What a tool's `inputSchema` may be: a Standard Schema (zod 4, valibot, arktype) or a JSON Schema. */
export type ToolInputSchema = StandardSchemaV1 | JsonSchema;

/** The arguments a tool's `execute` gets for a schema: a Standard Schema's output type; a JSON Schema infers nothing. */
export type ToolArgs<Schema> = Schema extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<Schema> : any;

/**
 * The outcome of checking a value: the value to use (the library's output), or why it does not match.
 * `ownText`: the message is the runtime's own (Ajv's, naming schema keywords and places the schema
 * declares, never a value), so it is exported without content capture. Ajv names a place by its path
 * in the data: a key there that the schema does not declare (a key of an `additionalProperties` map,
 * say a customer's name) is the model's data, and makes the message content. A Standard Schema
 * library's messages may quote the value (valibot: 'Expected string but received "…"'), so they are content.
 */
export type SchemaVerdict = { ok: true; value: unknown } | { ok: false; message: string; ownText: boolean };

export interface CheckedSchema {
  /** The JSON Schema to send the model. */
  readonly jsonSchema: JsonSchema;
  /** Checks a value the model sent: the verdict at once when the check needs no wait (run/thenable.ts), else a promise of it that never rejects. */
  validate(value: unknown): SchemaVerdict | Promise<SchemaVerdict>;
}

/** Longest validation message kept (a model's 20,000 wrong items make one error each). */
const MAX_MESSAGE_CHARS = 2_000;

function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  const props = (schema as { '~standard'?: { version?: unknown; validate?: unknown } } | null)?.['~standard'];
  return typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function';
}

/** A schema checked, or an Error saying what is wrong with it and what to do. */
export function checkSchema(schema: unknown): CheckedSchema {
  if (isStandardSchema(schema)) return standardSchema(schema);
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new Error('it is neither a JSON Schema (a plain object) nor a Standard Schema (zod 4, valibot, arktype)');
  }
  const jsonSchema = schema as JsonSchema;
  const checked = checkJsonSchema(jsonSchema);
  let declared: ReadonlySet<string> | undefined;
  const judge = (verdict: WorkerVerdict, value: unknown): SchemaVerdict => {
    if (verdict.ok) return { ok: true, value };
    const ownText = (verdict.paths ?? []).every((place) => declaredPlace(place, value, (declared ??= declaredKeys(jsonSchema))));
    return { ok: false, message: bounded(verdict.unchecked ? `the arguments could not be checked: ${verdict.message}` : verdict.message), ownText };
  };
  return {
    jsonSchema,
    validate(value) {
      const verdict = checkArguments(checked, value);
      return verdict instanceof Promise ? verdict.then((answered) => judge(answered, value)) : judge(verdict, value);
    },
  };
}

/** Every key the schema declares as a property name (of any `properties`, at any depth, definitions included). */
function declaredKeys(schema: unknown, keys = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return keys;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) for (const key of Object.keys(properties)) keys.add(key);
  for (const value of Object.values(schema)) declaredKeys(value, keys);
  return keys;
}

/** Whether a place in `data` (a JSON Pointer) is named only by indexes of arrays and keys the schema declares. */
function declaredPlace(pointer: string, data: unknown, declared: ReadonlySet<string>): boolean {
  let at = data;
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!Array.isArray(at) && !declared.has(key)) return false;
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  }
  return true;
}

/**
 * A tool's input schema checked: it must describe an object (what every model API takes as a tool's
 * arguments). `where` names the tool in the ConfigError (`agent "desk": tool "lookup"`).
 */
export function checkToolSchema(schema: unknown, where: string): CheckedSchema {
  let checked: CheckedSchema;
  try {
    checked = checkSchema(schema);
  } catch (error) {
    throw new ConfigError(`${where}: its inputSchema cannot be used: ${(error as Error).message}`);
  }
  const problem = objectRootProblem(checked);
  if (problem) throw new ConfigError(`${where}: its inputSchema must describe an object (type "object"), as tools take named arguments; ${problem}`);
  return checked;
}

/**
 * What keeps a checked schema from describing an object (`it has type "array"`), or undefined: the
 * model APIs take only an object as a tool's arguments, and OpenAI and Anthropic only an object as
 * structured output.
 */
export function objectRootProblem(checked: CheckedSchema): string | undefined {
  const type = checked.jsonSchema.type;
  return type === 'object' ? undefined : `it has type ${JSON.stringify(type) ?? 'none'}`;
}

function standardSchema(schema: StandardSchemaV1): CheckedSchema {
  const props = schema['~standard'];
  // describeError reads whatever was thrown without throwing itself (a null prototype, a throwing getter): validate never rejects.
  const failed = (error: unknown): SchemaVerdict => ({ ok: false, message: bounded(`the arguments could not be checked: the ${props.vendor} schema failed: ${describeError(error)}`), ownText: false });
  const judge = (result: unknown): SchemaVerdict => {
    try {
      // Anything but the spec's { value } or { issues: [...] } is no verdict, never a pass.
      if (!wellFormedResult(result)) {
        return { ok: false, message: bounded(`the arguments could not be checked: the ${props.vendor} schema gave a malformed result (a result is { value } or { issues: [...] })`), ownText: false };
      }
      if (result.issues) return { ok: false, message: bounded(issuesText(result.issues)), ownText: false };
      return { ok: true, value: result.value };
    } catch (error) {
      return failed(error);
    }
  };
  return {
    jsonSchema: wireSchemaOf(props as Partial<StandardJSONSchemaV1.Props>),
    validate(value) {
      try {
        const result: unknown = props.validate(value);
        return isThenable(result) ? Promise.resolve(result).then(judge, failed) : judge(result);
      } catch (error) {
        return failed(error);
      }
    },
  };
}

/** Whether a validate() result is one the Standard Schema spec allows: `{ value }`, or `{ issues }` with an array. */
function wellFormedResult(result: unknown): result is StandardSchemaV1.Result<unknown> {
  if (typeof result !== 'object' || result === null) return false;
  const issues = (result as { issues?: unknown }).issues;
  return issues === undefined ? 'value' in result : Array.isArray(issues);
}

/** The JSON Schema a Standard Schema library gives for its input: draft-07, else 2020-12. */
function wireSchemaOf(props: Partial<StandardJSONSchemaV1.Props> & { vendor?: string }): JsonSchema {
  const convert = props.jsonSchema?.input;
  if (typeof convert !== 'function') {
    throw new Error(
      `the ${props.vendor} schema gives no JSON Schema for the model (it does not implement Standard JSON Schema, ~standard.jsonSchema): use zod 4.2 or later, arktype 2.1.28 or later, wrap a valibot schema in toStandardJsonSchema() from @valibot/to-json-schema, or give a JSON Schema`,
    );
  }
  const failures: string[] = [];
  for (const target of ['draft-07', 'draft-2020-12'] as const) {
    try {
      return convert({ target });
    } catch (error) {
      failures.push(`${target}: ${(error as Error)?.message ?? String(error)}`);
    }
  }
  throw new Error(`the ${props.vendor} schema could not be turned into a JSON Schema for the model (${failures.join('; ')}): describe the arguments with types JSON Schema has (no transforms, dates or functions)`);
}

/** Issues as `args/path: message`, one after another (Ajv's way of naming a place in the arguments). */
function issuesText(issues: readonly StandardSchemaV1.Issue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment));
      return `${['args', ...path].join('/')}: ${issue.message}`;
    })
    .join('; ');
}

function bounded(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}… (cut at ${MAX_MESSAGE_CHARS} characters)` : message;
}
