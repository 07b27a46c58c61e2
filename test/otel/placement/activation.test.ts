/**
 * The fence around the one private API read of the bridge: activation (src/otel/placement/activation.ts)
 * finds the global context manager through @opentelemetry/api's internal `_getContextManager`, since
 * the API has no public getter. If an API release renames or drops it, activation would silently
 * turn off (spans keep their explicit parents, but provider HTTP spans and nested runners would no
 * longer nest): this file fails instead, naming what changed.
 */
import { context, ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { activator } from '../../../src/otel/placement/activation.js';

/** A context manager that records what it is asked to attach (the experimental attach() activation uses). */
class RecordingManager implements ContextManager {
  readonly attached: Context[] = [];
  active(): Context {
    return ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(_ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return fn.call(thisArg, ...args);
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
  attach(ctx: Context): void {
    this.attached.push(ctx);
  }
}

afterEach(() => {
  context.disable();
});

describe("the context manager read through the API's internal getter", () => {
  it('still exists on the API as a method returning the registered global manager', () => {
    const getter = (context as unknown as { _getContextManager?: unknown })._getContextManager;
    expect(typeof getter).toBe('function');
    const manager = new RecordingManager();
    context.setGlobalContextManager(manager);
    expect((getter as () => unknown).call(context)).toBe(manager);
  });

  it('gives activation the registered manager: activate() attaches to it', () => {
    const manager = new RecordingManager();
    context.setGlobalContextManager(manager);
    const activate = activator();
    const ctx = ROOT_CONTEXT.setValue(Symbol('probe'), 1);
    activate?.(ctx);
    expect(manager.attached).toEqual([ctx]);
  });

  it('turns activation off without an attach-capable manager', () => {
    expect(activator()).toBeUndefined();
    const { attach: _attach, ...plain } = Object.getOwnPropertyDescriptors(RecordingManager.prototype);
    const noAttach = Object.create(Object.prototype, plain) as ContextManager;
    context.setGlobalContextManager(noAttach);
    expect(activator()).toBeUndefined();
  });
});
