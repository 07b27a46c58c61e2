/**
 * A schema's verdict comes at once when nothing is to be waited for (run/thenable.ts): an argument
 * check done in this process, a Standard Schema whose validate() answers at once. Only a check on the
 * schema worker or a validate() that answers with a thenable gives a promise, and that promise never
 * rejects. A tool whose check and execute both answer at once runs with no promise between them.
 */
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../../src/runtime/tools/index.js';
import type { Tool } from '../../../src/index.js';
import { callOnce, standardSchemaOf } from './support.js';

const standard = (validate: (value: unknown) => unknown) => standardSchemaOf('probe', validate);

const ORDER_ID = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };

describe("a schema's verdict", () => {
  it('a JSON Schema checked in this process: the verdict itself, pass or fail', () => {
    const checked = checkSchema(ORDER_ID);
    expect(checked.validate({ id: 'a-1' })).toEqual({ ok: true, value: { id: 'a-1' } });
    expect(checked.validate({ id: 7 })).toEqual({ ok: false, message: 'args/id must be string', ownText: true });
  });

  it('a JSON Schema checked on the schema worker (a pattern): a promise of the verdict', async () => {
    const checked = checkSchema({ type: 'object', properties: { id: { type: 'string', pattern: '^a-[0-9]+$' } } });
    const verdict = checked.validate({ id: 'a-1' });
    expect(verdict).toBeInstanceOf(Promise);
    expect(await verdict).toEqual({ ok: true, value: { id: 'a-1' } });
  });

  it("a Standard Schema answering at once: the verdict itself, with the library's output", () => {
    expect(checkSchema(standard((value) => ({ value: { ...(value as object), seen: true } }))).validate({ id: 'a-1' })).toEqual({ ok: true, value: { id: 'a-1', seen: true } });
    expect(checkSchema(standard(() => ({ issues: [{ message: 'Required', path: ['id'] }] }))).validate({})).toEqual({ ok: false, message: 'args/id: Required', ownText: false });
  });

  it('a Standard Schema answering with a thenable that is no Promise: a promise of its verdict', async () => {
    const thenable = { then: (resolve: (result: unknown) => void) => resolve({ value: { id: 'b-2' } }) };
    const verdict = checkSchema(standard(() => thenable)).validate({ id: 'a-1' });
    expect(verdict).toBeInstanceOf(Promise);
    expect(await verdict).toEqual({ ok: true, value: { id: 'b-2' } });
  });

  it('a result whose `then` getter throws, or whose `issues` getter throws: a failed check, never a rejection', async () => {
    const thenThrows = { get then(): unknown { throw new RangeError('then getter'); } };
    const issuesThrow = { get issues(): unknown { throw new RangeError('issues getter'); } };
    expect(await checkSchema(standard(() => thenThrows)).validate({})).toEqual({ ok: false, message: 'the arguments could not be checked: the probe schema failed: RangeError: then getter', ownText: false });
    expect(checkSchema(standard(() => issuesThrow)).validate({})).toEqual({ ok: false, message: 'the arguments could not be checked: the probe schema failed: RangeError: issues getter', ownText: false });
    expect(await checkSchema(standard(() => Promise.resolve(issuesThrow))).validate({})).toEqual({ ok: false, message: 'the arguments could not be checked: the probe schema failed: RangeError: issues getter', ownText: false });
  });
});

describe('a tool whose check and execute answer at once', () => {
  it('runs in the same job as its check: no promise settles between them', async () => {
    const order: string[] = [];
    const tool: Tool = {
      name: 'lookup',
      description: 'Looks up',
      inputSchema: standard((value) => {
        order.push('validate');
        queueMicrotask(() => order.push('a microtask queued by validate'));
        return { value };
      }),
      execute: () => (order.push('execute'), 'found'),
    };
    const call = await callOnce(tool, { id: 'a-1' });
    expect(order).toEqual(['validate', 'execute', 'a microtask queued by validate']);
    expect([call.end.status, call.toolMessage]).toEqual(['ok', 'found']);
  });

  it('a thenable from execute is awaited: its value is the result', async () => {
    const tool: Tool = { name: 'lookup', description: 'Looks up', inputSchema: ORDER_ID, execute: () => ({ then: (resolve: (v: unknown) => void) => resolve('later') }) };
    const call = await callOnce(tool, { id: 'a-1' });
    expect([call.end.status, call.toolMessage]).toEqual(['ok', 'later']);
  });
});
