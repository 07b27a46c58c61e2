/**
 * fast-check arbitraries for values an app, a tool or a model can hand the runtime that JSON and
 * naive code choke on: anything fast-check makes (BigInt, Map, Set, Date, typed and sparse arrays,
 * boxed values, null-prototype objects, binary strings), 100,000-char strings, deep nesting, cycles
 * built by hand (objects, arrays, Maps and Sets that contain themselves), symbols as values and
 * keys, and hostile objects (throwing getters, a Proxy whose every trap throws, a throwing toJSON,
 * an unprintable object, functions, classes, promises, huge errors, thousands of keys).
 * Every draw builds fresh objects, so one test cannot leak state into the next.
 */
import fc from 'fast-check';

export const anything = fc.anything({
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withSparseArray: true,
  withNullPrototype: true,
  withBoxedValues: true,
  withObjectString: true,
  stringUnit: 'binary',
  maxDepth: 5,
  maxKeys: 8,
});

/** 100,000+ chars of one unit: plain, accented, astral (two code units), NUL, quote, backslash, a lone surrogate. */
export const hugeString = fc
  .tuple(fc.integer({ min: 100_000, max: 110_000 }), fc.constantFrom('a', 'é', '😀', '\u0000', '"', '\\', '\ud800'))
  .map(([length, unit]) => unit.repeat(length));

/** Objects and arrays nested 5 to 300 levels deep. */
export const deepValue = fc.integer({ min: 5, max: 300 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { child: value, level: i } : [value];
  return value;
});

/** A fresh structure with cycles through an object, an array, a Map and a Set, around `value`. */
export const cyclic = anything.map((value) => {
  const root: Record<string, unknown> = { value };
  root.self = root;
  root.list = [root, { back: root }];
  const map = new Map<unknown, unknown>([['root', root]]);
  map.set('self', map);
  root.map = map;
  const set = new Set<unknown>([root]);
  set.add(set);
  root.set = set;
  return root;
});

/** Symbols as values, as keys, and bare. */
export const symbolic = fc.string({ maxLength: 20 }).chain((description) =>
  fc.constantFrom<() => unknown>(
    () => Symbol(description),
    () => ({ [Symbol(description)]: 'under a symbol key', value: Symbol(description), list: [Symbol.iterator, 1] }),
  ).map((make) => make()),
);

const throwing = (what: string) => () => {
  throw new Error(`${what} throws`);
};

/**
 * fast-check itself looks at every generated value (its clone and toString hooks, when it reports a
 * counterexample): those two symbols are answered, every other access throws.
 */
function throwingProxy(): object {
  const label = () => '<a Proxy whose every trap throws>';
  const ours = (key: PropertyKey) => key === fc.cloneMethod || key === fc.toStringMethod;
  return new Proxy(
    {},
    {
      get: (_target, key) => (key === fc.toStringMethod ? label : key === fc.cloneMethod ? undefined : throwing('get')()),
      has: (_target, key) => (ours(key) ? key === fc.toStringMethod : throwing('has')()),
      ownKeys: throwing('ownKeys'),
      getPrototypeOf: throwing('getPrototypeOf'),
      getOwnPropertyDescriptor: throwing('getOwnPropertyDescriptor'),
    },
  );
}

/** Objects that break code which trusts what it is given. */
export const hostile = fc
  .constantFrom<() => unknown>(
    () => ({ get boom(): unknown { throw new Error('getter throws'); }, fine: 1, [fc.toStringMethod]: () => '<throwing getter>' }),
    throwingProxy,
    () => ({ toJSON: throwing('toJSON') }),
    () => ({ toString: 5, valueOf: null, constructor: 'not a function', hasOwnProperty: 'nope' }),
    () => Object.freeze({ frozen: [1, 2, 3] }),
    () => Object.assign(Object.create(null) as object, { bare: true }),
    () => new Error('e'.repeat(100_000)),
    () => Object.assign(new TypeError('with extras'), { code: 'E_ODD', cause: { deep: true } }),
    () => Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
    () => Array.from({ length: 50_000 }, (_, i) => i),
    () => new Uint8Array(100_000),
    () => new Date(Number.NaN),
    () => [Number.NaN, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_VALUE],
    () => function named() {},
    () => class Klass {},
    () => Promise.resolve('a promise'),
    () => new WeakMap(),
    () => new ArrayBuffer(16),
    () => 10n ** 100n,
    () => new (class Custom {
      x = 1;
    })(),
    () => new String('boxed'),
  )
  .map((make) => make());

/** Any of the above, or null / undefined. */
export const oddPayload = fc.oneof(
  anything,
  hugeString,
  deepValue,
  cyclic,
  symbolic,
  hostile,
  fc.bigInt(),
  fc.date({ noInvalidDate: false }),
  fc.constant(null),
  fc.constant(undefined),
);

/** Short odd text, for identifiers a model or provider makes up (names, ids, reasons). */
export const oddShortString = fc.oneof(
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.constantFrom('', ' ', '__proto__', 'constructor', 'toString', '\n', '\u0000', '{"a":1}', '../../etc', '🧾'),
);

/** Odd text of any length, for content (answers, messages). */
export const oddText = fc.oneof(fc.string({ maxLength: 200, unit: 'binary' }), hugeString, oddShortString);
