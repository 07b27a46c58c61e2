/**
 * A tool call's own copy of its arguments (a tool's, agent/toolRunner.ts; a run's input conversation,
 * runInput.ts): what `structuredClone` makes of them. A
 * flat object of primitive values, what most tool calls carry, is copied field by field (its own
 * enumerable string keys, in their order, as structuredClone copies them) at a fifteenth of
 * structuredClone's cost; anything else (a nested value, a class instance, a null prototype, a
 * Proxy, a `__proto__` key, a value structuredClone refuses) goes through structuredClone itself.
 * (An accessor property is read as structuredClone reads it; on an object that turns out not to be
 * flat, the fields read before the nested one are read again by structuredClone.)
 */
import { types } from 'node:util';

const hasOwn = Object.prototype.hasOwnProperty;

export function copyArgs<T extends object>(args: T): T {
  if (Object.getPrototypeOf(args) !== Object.prototype || types.isProxy(args)) return structuredClone(args);
  const copy: Record<string, unknown> = {};
  // for-in with the prototype's hasOwnProperty: V8 folds the check away inside for-in (docs/benchmarks.md)
  for (const key in args) {
    if (!hasOwn.call(args, key)) continue;
    const value: unknown = args[key];
    if (key === '__proto__' || (typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'symbol') return structuredClone(args);
    copy[key] = value;
  }
  return copy as T;
}

/** Why arguments copyArgs refused to copy (it throws as structuredClone does): the runtime's wording, no content. */
export const UNCOPYABLE_ARGS = 'they hold a function or a symbol, or are nested too deep';
