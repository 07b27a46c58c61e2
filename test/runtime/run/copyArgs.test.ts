/**
 * A tool call's copy of its arguments is exactly what structuredClone makes of them, by the fast
 * path (a flat object of primitives) or by structuredClone itself, and it refuses what
 * structuredClone refuses.
 */
import { describe, expect, it } from 'vitest';
import { copyArgs } from '../../../src/runtime/run/copyArgs.js';

/** The copy and structuredClone's, with each one's own keys and prototype, for a comparison that sees both. */
function both(args: object) {
  const view = (copy: object) => ({ copy, keys: Reflect.ownKeys(copy), proto: Object.getPrototypeOf(copy) as unknown });
  return { ours: view(copyArgs(args)), clone: view(structuredClone(args)) };
}

describe('copyArgs', () => {
  it.each([
    ['a flat object of primitives', { to: 'Lyon', kg: 2, express: false, note: null, left: undefined, big: 10n, zero: -0 }],
    ['an empty object', {}],
    ['integer-like keys (ordered first by both)', { b: 1, 2: 'two', a: 3, 1: 'one' }],
    ['a nested object', { address: { city: 'Lyon', zip: '69001' }, kg: 2 }],
    ['an array value', { ids: [1, 2, 3] }],
    ['a Date value', { at: new Date(0) }],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { id: '1234' })],
    ['an own __proto__ key (as JSON.parse makes)', JSON.parse('{"__proto__": {"x": 1}, "id": "1"}') as object],
    ['an own __proto__ key with a primitive', JSON.parse('{"__proto__": 5, "id": "1"}') as object],
    ['a symbol key (dropped)', { id: '1', [Symbol('s')]: 2 }],
    ['a non-enumerable key (dropped)', Object.defineProperty({ id: '1' }, 'hidden', { value: 2, enumerable: false })],
  ])('copies %s as structuredClone does', (_what, args) => {
    const { ours, clone } = both(args);
    expect(ours).toEqual(clone);
    expect(Object.is((ours.copy as { zero?: number }).zero, (clone.copy as { zero?: number }).zero)).toBe(true);
    expect(ours.copy).not.toBe(args);
  });

  it('copies: a change to the copy leaves the arguments as they were', () => {
    const args = { to: 'Lyon', kg: 2 };
    const copy = copyArgs(args);
    copy.kg = 3;
    expect(args).toEqual({ to: 'Lyon', kg: 2 });
  });

  it('leaves an inherited enumerable key out, as structuredClone does', () => {
    const args = Object.create({ inherited: 1 }) as { id?: string };
    args.id = '1';
    expect(copyArgs(args)).toEqual(structuredClone(args));
    const plain: Record<string, unknown> = { id: '1' };
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      expect(Object.keys(copyArgs(plain))).toEqual(['id']);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });

  it.each([
    ['a function value', { run: () => 1 }],
    ['a symbol value', { tag: Symbol('t') }],
    ['a Proxy', new Proxy({ id: '1' }, {})],
  ])('refuses %s with the error structuredClone throws', (_what, args) => {
    const error = (work: () => unknown) => {
      try {
        work();
      } catch (thrown) {
        return { name: (thrown as Error).name, message: (thrown as Error).message };
      }
      return undefined;
    };
    const cloneError = error(() => structuredClone(args));
    expect(cloneError?.name).toBe('DataCloneError');
    expect(error(() => copyArgs(args))).toEqual(cloneError);
  });
});
