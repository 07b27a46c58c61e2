/**
 * A Standard Schema is the app's code (or a library's), run in this process: one that answers what
 * the Standard Schema spec does not allow (a result that is neither `{ value }` nor `{ issues }`)
 * never lets a call through unchecked, for a tool's arguments or an agent's structured output.
 */
import { describe, expect, it } from 'vitest';
import { Agent, RunFailedError, scripted, StructuredOutputError, type OutputSchema } from '../../../src/index.js';
import { callOnce } from './support.js';

/** A Standard Schema (with Standard JSON Schema, so an agent takes it) whose validate() is `validate`. */
function evilSchema(validate: (value: unknown) => unknown): OutputSchema {
  const jsonSchema = () => ({ type: 'object' });
  return { '~standard': { version: 1, vendor: 'evil', validate, jsonSchema: { input: jsonSchema, output: jsonSchema } } } as unknown as OutputSchema;
}

const MALFORMED = 'the arguments could not be checked: the evil schema gave a malformed result (a result is { value } or { issues: [...] })';
const malformedResults: [string, unknown][] = [
  ['a number', 42],
  ['null', null],
  ['an object with neither value nor issues', {}],
  ['issues that are no array', { issues: 'bad' }],
];

describe('a Standard Schema whose validate() gives a malformed result', () => {
  it.each(malformedResults)('%s: the tool never runs, the model is told the arguments could not be checked', async (_label, result) => {
    let executed = 0;
    const call = await callOnce({ name: 'lookup', description: 'Looks up', inputSchema: evilSchema(() => result), execute: () => executed++ }, { id: 'a-1' });
    expect(executed).toBe(0);
    expect([call.end.status, call.end.error]).toEqual(['invalid_args', { type: 'invalid_args', message: MALFORMED }]);
    expect(call.toolMessage).toBe(`Invalid arguments for tool "lookup": ${MALFORMED}. Fix them and call again.`);
  });

  it.each(malformedResults)('%s: structured output is never answered without its output; retries used up fail the run', async (_label, result) => {
    const agent = Agent.create({ provider: scripted({ replies: ['{"a":1}'] }), model: 'm', id: 'desk', output: evilSchema(() => result) }).build();
    const error = await agent.run('go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedError);
    const cause = (error as RunFailedError).cause as StructuredOutputError;
    expect(cause).toBeInstanceOf(StructuredOutputError);
    expect([cause.attempts, cause.problem, cause.text]).toEqual([2, MALFORMED, '{"a":1}']);
  });
});
