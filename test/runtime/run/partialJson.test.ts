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

describe('a long streamed structured answer', () => {
  it('is parsed at every chunk for its first 4,096 characters, then each time it has grown by a tenth, and once more at its end: never a parse per chunk', async () => {
    // 3,000 items of 13 characters, one per chunk: about 39 KB, each chunk a value of its own.
    const items = Array.from({ length: 3000 }, (_, i) => `item-${String(i).padStart(5, '0')}`);
    const chunks = ['{"items":[', ...items.map((item, i) => (i < items.length - 1 ? `"${item}",` : `"${item}"]}`))];
    const agent = Agent.create({ provider: scripted({ replies: [{ chunks }] }), model: 'm', id: 'desk', output: { type: 'object' } }).build();
    const stream = agent.stream('go');
    const counts: number[] = [];
    for await (const part of stream) if (part.type === 'partial_output') counts.push((part.value as { items: unknown[] }).items.length);
    const result = await stream.result;

    expect([result.stopReason, (result.output as { items: string[] }).items.length]).toEqual(['answered', 3000]);
    // Where the schedule parses: the JSON's length after each chunk, every one up to 4,096, then each at 1.1x the last parsed.
    const expected: number[] = [];
    let length = 0;
    let parsedAt = 0;
    chunks.forEach((chunk, i) => {
      length += chunk.length;
      if (length > 4096 && length < parsedAt * 1.1) return;
      parsedAt = length;
      expected.push(Math.min(i, 3000));
    });
    // The call's end parses what came after the last parse: the last partial value is the whole answer.
    if (parsedAt < length) expected.push(3000);
    expect(counts).toEqual(expected);
    // 315 chunks within the first 4,096 characters, then 23 parses for the other 2,686 chunks and one at the end.
    expect([expected.length, counts.at(-1)]).toEqual([339, 3000]);
  });
});
