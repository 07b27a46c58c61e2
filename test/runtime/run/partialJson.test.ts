/** parsePartialJson: the values a streamed structured answer shows as it grows (stream()'s partial_output parts). */
import { describe, expect, it } from 'vitest';
import { Agent, scripted } from '../../../src/index.js';
import { parsePartialJson } from '../../../src/runtime/run/partialJson.js';

describe('parsePartialJson: what a prefix of a JSON text holds so far', () => {
  it('gives every prefix of an object the value it already holds', () => {
    const text = '{"city":"Oslo","days":[1,22],"ok":true,"note":null}';
    const seen: unknown[] = [];
    for (let end = 0; end <= text.length; end++) {
      const read = parsePartialJson(text.slice(0, end));
      const last = seen.length === 0 ? undefined : JSON.stringify(seen[seen.length - 1]);
      if (read && JSON.stringify(read.value) !== last) seen.push(read.value);
    }
    expect(seen).toEqual([
      {},
      { city: '' },
      { city: 'O' },
      { city: 'Os' },
      { city: 'Osl' },
      { city: 'Oslo' },
      { city: 'Oslo', days: [] },
      { city: 'Oslo', days: [1] },
      { city: 'Oslo', days: [1, 22] },
      { city: 'Oslo', days: [1, 22], ok: true },
      { city: 'Oslo', days: [1, 22], ok: true, note: null },
    ]);
  });

  it('keeps a cut string up to an unfinished escape, and decodes whole escapes', () => {
    expect(parsePartialJson('{"a":"x\\')).toEqual({ value: { a: 'x' } });
    expect(parsePartialJson('{"a":"x\\u00')).toEqual({ value: { a: 'x' } });
    expect(parsePartialJson('{"a":"x\\u00e9\\n')).toEqual({ value: { a: 'xé\n' } });
  });

  it('leaves out a cut number or literal, and a key whose value has not begun', () => {
    expect(parsePartialJson('{"n":12')).toEqual({ value: {} });
    expect(parsePartialJson('{"n":-')).toEqual({ value: {} });
    expect(parsePartialJson('{"b":tr')).toEqual({ value: {} });
    expect(parsePartialJson('{"n":12,"k')).toEqual({ value: { n: 12 } });
    expect(parsePartialJson('{"n":12,"k":')).toEqual({ value: { n: 12 } });
    expect(parsePartialJson('[{"a":[1,{"b":"c')).toEqual({ value: [{ a: [1, { b: 'c' }] }] });
  });

  it('gives undefined for nothing yet and for what is not JSON', () => {
    expect(parsePartialJson('')).toBeUndefined();
    expect(parsePartialJson('  ')).toBeUndefined();
    expect(parsePartialJson('Sure! {"a":1}')).toBeUndefined();
    expect(parsePartialJson('{"a" 1')).toBeUndefined();
    expect(parsePartialJson('{"a":1} trailing')).toBeUndefined();
    expect(parsePartialJson('{"a":01')).toBeUndefined();
    expect(parsePartialJson('{"a":1}')).toEqual({ value: { a: 1 } });
  });
});

describe('a streamed structured answer nested deeper than the parser can follow', () => {
  it('answers as run() does: the partial values stop where the nesting is too deep, never failing the run', async () => {
    const depth = 100_000;
    const answer = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const agent = Agent.create({ provider: scripted({ replies: [{ chunks: ['{"a":{"a":', answer.slice(10)] }] }), model: 'm', id: 'desk', output: { type: 'object' } }).build();
    const stream = agent.stream('go');
    const partials: unknown[] = [];
    for await (const part of stream) if (part.type === 'partial_output') partials.push(part.value);
    const result = await stream.result;
    expect([result.stopReason, result.text]).toEqual(['answered', answer]);
    expect(partials).toEqual([{ a: {} }]);
  });
});
