/**
 * safeStringify writes JSON for values nobody vetted and never throws. A flat object (strings,
 * numbers, booleans, nulls) takes JSON.stringify alone; everything else the careful path (a replacer
 * and a cycle set). Both give the same text where both apply, and whatever a getter does on either
 * path, the answer is text.
 */
import { describe, expect, it } from 'vitest';
import { safeStringify } from '../../../src/runtime/run/safeJson.js';

describe('safeStringify', () => {
  it('a flat object: the text JSON.stringify writes, non-finite numbers as null, with or without a prototype', () => {
    const flat = { id: 'a-1', kg: 2.5, ok: true, gone: null, bad: Number.NaN, far: Number.POSITIVE_INFINITY };
    expect(safeStringify(flat)).toBe('{"id":"a-1","kg":2.5,"ok":true,"gone":null,"bad":null,"far":null}');
    expect(safeStringify(Object.assign(Object.create(null) as object, { id: 'b-2' }))).toBe('{"id":"b-2"}');
  });

  it('anything else takes the careful path: BigInt as its digits, functions and symbols left out, a cycle marked', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(safeStringify({ n: 10n, f: () => 1, s: Symbol('x'), nested: { ok: true } })).toBe('{"n":"10","nested":{"ok":true}}');
    expect(safeStringify(cyclic)).toBe('{"name":"loop","self":"[circular]"}');
    expect(safeStringify([1, 'two'])).toBe('[1,"two"]');
  });

  it('a getter that throws: text saying so, never a throw', () => {
    const hostile = {
      id: 'a-1',
      get secret(): string {
        throw new Error('no access');
      },
    };
    expect(safeStringify(hostile)).toBe('[unserializable: no access]');
  });

  it('a getter whose second answer differs from its first (a BigInt, a cycle): the careful path writes it', () => {
    let reads = 0;
    const shifty = {
      get size(): unknown {
        reads++;
        return reads === 1 ? 1 : 2n ** 70n;
      },
    };
    expect(safeStringify(shifty)).toBe(`{"size":"${(2n ** 70n).toString()}"}`);
  });
});
