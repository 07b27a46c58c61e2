/**
 * Payload flattening and bounding: nested objects to dotted keys, strings and lists capped with a
 * marker, depth and key budgets, cycles and odd values tolerated; and, for any input at all, the
 * output is valid OTel attributes within the bounds and flatten never throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatten, MAX_KEYS, MAX_LIST, MAX_STRING, safeJson, toList } from '../../../src/otel/encoding/bounded.js';

describe('flatten', () => {
  it('turns nested payloads into dotted keys', () => {
    expect(flatten({ kind: 'ping_pong', skills: ['a', 'b'], tokens: { input: 3, output: 4 }, ok: true }, '')).toEqual({
      kind: 'ping_pong',
      skills: ['a', 'b'],
      'tokens.input': 3,
      'tokens.output': 4,
      ok: true,
    });
    expect(flatten({ a: { b: 1 } }, 'payload')).toEqual({ 'payload.a.b': 1 });
    expect(flatten('plain', '')).toEqual({ value: 'plain' });
  });

  it("keeps an object's own fields in their order, never its prototype's", () => {
    const inner = Object.assign(Object.create({ inherited: 1 }) as object, { z: 1, a: 2 });
    const outer = Object.assign(Object.create({ leaked: 'x' }) as object, { b: true, inner, a: 'last' });
    expect(Object.entries(flatten(outer, 'p'))).toEqual([
      ['p.b', true],
      ['p.inner.z', 1],
      ['p.inner.a', 2],
      ['p.a', 'last'],
    ]);
  });

  it('caps strings and lists with a visible marker', () => {
    const long = 'x'.repeat(MAX_STRING + 44);
    expect(flatten({ long }, '').long).toBe(`${'x'.repeat(MAX_STRING)}…(+44 chars)`);
    const list = flatten({ list: Array.from({ length: MAX_LIST + 5 }, (_, i) => i) }, '').list as string[];
    expect(list).toHaveLength(MAX_LIST + 1);
    expect(list.at(-1)).toBe('+5 more');
    expect(list[0]).toBe('0');
    expect(toList([1, 'a', { b: 2 }])).toEqual(['1', 'a', '{"b":2}']);
  });

  it('bounds depth and key count', () => {
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    expect(flatten(deep, '')).toEqual({ 'a.b.c.d': '{"e":{"f":1}}' });
    const wide = Object.fromEntries(Array.from({ length: MAX_KEYS + 10 }, (_, i) => [`k${i}`, i]));
    const out = flatten(wide, '');
    expect(Object.keys(out)).toHaveLength(MAX_KEYS + 1);
    expect(out._dropped).toBe(10);
  });

  it('tolerates cycles and odd values', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const throwing = Object.defineProperty({}, 'bad', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(
      flatten(
        {
          cyclic,
          big: 10n,
          nan: Number.NaN,
          date: new Date(0),
          error: new TypeError('bad input'),
          map: new Map([['k', 1]]),
          set: new Set(['s']),
          fn: () => 1,
          sym: Symbol('x'),
          nothing: null,
          throwing,
        },
        '',
      ),
    ).toEqual({
      'cyclic.name': 'loop',
      'cyclic.self': '[circular]',
      big: '10',
      nan: 'NaN',
      date: '1970-01-01T00:00:00.000Z',
      error: 'TypeError: bad input',
      'map.k': 1,
      set: ['s'],
      'throwing.bad': '[unreadable]',
    });
    expect(safeJson(cyclic)).toBe('{"name":"loop","self":"[circular]"}');
  });

  it("names a Map's keys whatever they are, even an object whose toString cannot be called", () => {
    const uncallable = { toString: new Date(0) };
    const keys = new Map<unknown, unknown>([
      [[uncallable], 'a'],
      [{ id: 7 }, 'b'],
      [Symbol('s'), 'c'],
      [2, 'd'],
      [new Date(0), 'e'],
      [null, 'f'],
    ]);
    expect(flatten({ keys }, '')).toEqual({
      'keys.[{"toString":"1970-01-01T00:00:00.000Z"}]': 'a',
      'keys.{"id":7}': 'b',
      'keys.Symbol(s)': 'c',
      'keys.2': 'd',
      'keys.1970-01-01T00:00:00.000Z': 'e',
      'keys.null': 'f',
    });
  });

  it('safeJson never throws, even for a function whose toString cannot be called', () => {
    const fn = Object.assign(() => 1, { toString: 1 });
    expect(safeJson(fn)).toBe('[unserializable]');
    expect(safeJson(undefined)).toBe('undefined');
    expect(safeJson(Symbol('s'))).toBe('Symbol(s)');
  });

  it('never throws and always yields bounded attribute values', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withTypedArray: true, withSparseArray: true }), (value) => {
        const out = flatten(value, 'p');
        expect(Object.keys(out).length).toBeLessThanOrEqual(MAX_KEYS + 1);
        for (const v of Object.values(out)) {
          const items = Array.isArray(v) ? v : [v];
          expect(items.length).toBeLessThanOrEqual(MAX_LIST + 1);
          for (const item of items) {
            expect(['string', 'number', 'boolean']).toContain(typeof item);
            if (typeof item === 'string') expect(item.length).toBeLessThanOrEqual(MAX_STRING + 32);
          }
          if (Array.isArray(v)) expect(new Set(v.map((item) => typeof item)).size).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});
