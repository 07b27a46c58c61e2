/**
 * A Standard Schema is the app's code (or a library's), run in this process: one that answers what
 * the Standard Schema spec does not allow (a result that is neither `{ value }` nor `{ issues }`)
 * never lets a call through unchecked, for a tool's arguments or an agent's structured output.
 */
import { describe, expect, it } from 'vitest';
import { Agent, RunCancelledError, RunFailedError, scripted, StructuredOutputError } from '../../../src/index.js';
import { callOnce, standardSchemaOf } from './support.js';

const evilSchema = (validate: (value: unknown) => unknown) => standardSchemaOf('evil', validate);

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

describe('a Standard Schema whose validate() never settles', () => {
  /** A schema whose validate() never settles, and calls `onCall` when it is called. */
  const hanging = (onCall: () => void = () => {}) => evilSchema(() => (onCall(), new Promise(() => {})));

  it("a tool's call ends at its deadline as any overdue call does; the run answers", async () => {
    let executed = 0;
    const provider = scripted({ replies: [{ toolCalls: [{ id: 'call-1', name: 'lookup', args: { id: 'a-1' } }] }, 'done'] });
    const agent = Agent.create({ provider, model: 'm', id: 'desk', toolTimeoutMs: 50 })
      .tool({ name: 'lookup', description: 'Looks up', inputSchema: hanging(), execute: () => executed++ })
      .build();
    const result = await agent.run('go');
    expect([result.text, result.stopReason, executed]).toEqual(['done', 'answered', 0]);
    expect(provider.calls[1]!.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call-1', content: 'Tool "lookup" did not finish within 50 ms and was stopped.' });
  });

  it("a tool's call ends when the run is cancelled: run() rejects with RunCancelledError", async () => {
    const controller = new AbortController();
    const provider = scripted({ replies: [{ toolCalls: [{ id: 'call-1', name: 'lookup', args: { id: 'a-1' } }] }, 'done'] });
    const agent = Agent.create({ provider, model: 'm', id: 'desk' })
      .tool({ name: 'lookup', description: 'Looks up', inputSchema: hanging(() => controller.abort()), execute: () => 'ran' })
      .build();
    const error = await agent.run('go', { signal: controller.signal }).catch((e: unknown) => e);
    expect([(error as Error).name, (error as RunCancelledError).result?.stopReason]).toEqual(['RunCancelledError', 'cancelled']);
    expect(provider.calls).toHaveLength(1);
  });

  it('structured output: the run ends when it is cancelled, run() rejects with RunCancelledError', async () => {
    const controller = new AbortController();
    const agent = Agent.create({ provider: scripted({ replies: ['{"a":1}'] }), model: 'm', id: 'desk', output: hanging(() => controller.abort()) }).build();
    const error = await agent.run('go', { signal: controller.signal }).catch((e: unknown) => e);
    expect([(error as Error).name, (error as RunCancelledError).result?.stopReason]).toEqual(['RunCancelledError', 'cancelled']);
  });
});

describe('a Standard Schema whose validate() throws what cannot be read', () => {
  const thrown: [string, () => unknown, string][] = [
    ['an object without a prototype', () => Object.create(null), 'an object was thrown (not an Error): {}'],
    ['an object whose message getter throws', () => ({ get message(): string { throw new Error('getter'); } }), 'an object was thrown (not an Error): [unserializable: getter]'],
    ['an Error', () => new RangeError('refine failed'), 'RangeError: refine failed'],
  ];

  it.each(thrown)('%s: a tool call is invalid_args saying so, never run', async (_label, make, described) => {
    let executed = 0;
    const schema = evilSchema(() => {
      throw make();
    });
    const call = await callOnce({ name: 'lookup', description: 'Looks up', inputSchema: schema, execute: () => executed++ }, { id: 'a-1' });
    expect(executed).toBe(0);
    expect([call.end.status, call.end.error]).toEqual(['invalid_args', { type: 'invalid_args', message: `the arguments could not be checked: the evil schema failed: ${described}` }]);
  });

  it.each(thrown)('%s: structured output retries used up fail the run with StructuredOutputError', async (_label, make, described) => {
    const output = evilSchema(() => {
      throw make();
    });
    const error = await Agent.create({ provider: scripted({ replies: ['{"a":1}'] }), model: 'm', id: 'desk', output }).build().run('go').catch((e: unknown) => e);
    const cause = (error as RunFailedError).cause as StructuredOutputError;
    expect([cause.name, cause.problem]).toEqual(['StructuredOutputError', `the arguments could not be checked: the evil schema failed: ${described}`]);
  });
});
