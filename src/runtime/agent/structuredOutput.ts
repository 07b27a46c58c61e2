/**
 * Structured output (AgentOptions.output): the schema checked once at build (tools/schema.ts, the one
 * schema mechanism), sent as LLMRequest.responseFormat (each provider's native means), and the
 * answer read back, parsed and validated. Anthropic answers through a forced tool named after the
 * format: that call is the answer, never a tool call the agent runs (answerOf). An answer that is not
 * JSON or fails the schema is asked again up to `outputRetries` times, the problem told to the model;
 * past that the run fails with StructuredOutputError.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { markOwnText } from '../../events/index.js';
import { argumentsText, type LLMResponse, type ResponseFormat } from '../providers/index.js';
import { ConfigError, numberSetting, parseModelJson, untilAborted } from '../run/index.js';
import { checkSchema, objectRootProblem, type CheckedSchema, type JsonSchema } from '../tools/index.js';

/** What `output` may be: a Standard Schema (zod 4, valibot, arktype) or a JSON Schema. */
export type OutputSchema = StandardSchemaV1 | JsonSchema;

/** The type of `result.output` for a schema: a Standard Schema's output type; a JSON Schema infers nothing. */
export type OutputOf<Schema> = Schema extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<Schema> : unknown;

/** The name the format is sent under (OpenAI's json_schema name, Anthropic's forced tool). */
export const OUTPUT_FORMAT_NAME = 'output';

export interface StructuredOutput {
  readonly format: ResponseFormat;
  readonly schema: CheckedSchema;
  /** How many times an invalid answer is asked again (outputRetries). */
  readonly retries: number;
}

/** The agent's `output` and `outputRetries` checked (a ConfigError says what is wrong), or undefined without `output`. */
export function checkedOutput(owner: string, options: { output?: unknown; outputRetries?: unknown }): StructuredOutput | undefined {
  if (options.output === undefined) {
    if (options.outputRetries !== undefined) throw new ConfigError(`${owner}: outputRetries needs output (a schema)`, { field: 'outputRetries' });
    return undefined;
  }
  let schema: CheckedSchema;
  try {
    schema = checkSchema(options.output);
  } catch (error) {
    throw new ConfigError(`${owner}: its output schema cannot be used: ${(error as Error).message}`, { field: 'output' });
  }
  // The Chat Completions and Responses APIs take only an object as a json_schema's root, and Anthropic's forced
  // tool only an object as its input: any other root is refused here rather than by the provider on every call.
  const problem = objectRootProblem(schema);
  if (problem) {
    throw new ConfigError(
      `${owner}: its output schema must describe an object (type "object"), as the providers take structured output as one; ${problem} (put a list or a value under a field: z.object({ items: z.array(...) }))`,
      { field: 'output' },
    );
  }
  const retries = numberSetting(owner, 'outputRetries', options.outputRetries, { min: 0, max: 10 }, 1);
  return { format: { name: OUTPUT_FORMAT_NAME, schema: schema.jsonSchema }, schema, retries };
}

/**
 * The reply with a forced-tool answer (Anthropic) turned into the answer's text: its JSON, or the
 * arguments as written when they were no JSON object (ToolCall.argsText: a reply cut by max_tokens),
 * so an answer cut short is judged as the no-JSON it is, never as the `{}` its args stand in with.
 */
export function answerOf(response: LLMResponse, output: StructuredOutput): LLMResponse {
  const answer = response.toolCalls.find((call) => call.name === output.format.name);
  if (answer === undefined) return response;
  return { ...response, content: argumentsText(answer), toolCalls: response.toolCalls.filter((call) => call !== answer) };
}

/** The verdict on an answer's text: the validated value, or what is wrong with it (ownText: worded by footprint-otel). */
export type AnswerVerdict = { ok: true; value: unknown } | { ok: false; message: string; ownText: boolean };

/** The schema mechanism names the value's root `args` (it was made for tools' arguments); here it is the output. */
const ARGS_ROOT = /(^|[;,] )args(?=[/ ]|$)/g;

/**
 * The verdict on an answer, or the run's cancellation: a Standard Schema is the app's own code and its
 * validate() may never settle, so the wait for it ends when the run's signal aborts (rejecting with its reason).
 */
export async function judgeAnswer(output: StructuredOutput, text: string, signal?: AbortSignal): Promise<AnswerVerdict> {
  let parsed: unknown;
  try {
    parsed = parseModelJson(text);
  } catch {
    return { ok: false, message: 'the answer is not JSON: answer with one JSON value only, no other text', ownText: true };
  }
  const verdict = await untilAborted(output.schema.validate(parsed), signal);
  if (verdict.ok) return verdict;
  return { ok: false, message: verdict.message.replace(ARGS_ROOT, '$1output'), ownText: verdict.ownText };
}

/** The user message that asks again, telling the model what was wrong. */
export function askAgain(problem: string): string {
  return `Your answer is not valid for the required output schema: ${problem}. Answer again with JSON that matches the schema.`;
}

/**
 * The run's answer was not valid structured output after every retry (AgentOptions.outputRetries):
 * the `cause` of run()'s RunFailedError. `text` is the last answer, `problem` what is wrong with it.
 */
export class StructuredOutputError extends Error {
  override readonly name = 'StructuredOutputError';
  static {
    markOwnText(this);
  }
  constructor(
    readonly agentId: string,
    /** How many answers were judged, all invalid (outputRetries + 1). */
    readonly attempts: number,
    readonly problem: string,
    readonly text: string,
  ) {
    super(`agent "${agentId}": no valid structured output after ${attempts} answer(s)`);
  }
}
