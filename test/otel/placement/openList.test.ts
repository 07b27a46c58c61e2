/** OpenList (src/otel/placement/openList.ts): what the bridge keeps in flight by key, a Map's get/set/delete in the order entries came. */
import { describe, expect, it } from 'vitest';
import { OpenList } from '../../../src/otel/placement/index.js';

describe('OpenList', () => {
  it('finds, replaces and removes by key, keeping the other entries in the order they came', () => {
    const list = new OpenList<string, number>();
    list.set('a', 1);
    list.set('b', 2);
    list.set('c', 3);
    list.set('b', 20);
    expect([list.get('a'), list.get('b'), list.get('c'), list.get('d')]).toEqual([1, 20, 3, undefined]);
    expect([list.delete('a'), list.delete('a'), list.delete('d')]).toEqual([true, false, false]);
    list.set('d', 4);
    expect(list.entries()).toEqual([
      ['b', 20],
      ['c', 3],
      ['d', 4],
    ]);
    expect([list.delete('c'), list.delete('d'), list.delete('b')]).toEqual([true, true, true]);
    expect(list.entries()).toEqual([]);
  });

  it('tells keys apart by identity, as a Map does', () => {
    const list = new OpenList<object, string>();
    const [first, second] = [{}, {}];
    list.set(first, 'first');
    list.set(second, 'second');
    expect([list.get(first), list.get(second), list.get({})]).toEqual(['first', 'second', undefined]);
  });
});
