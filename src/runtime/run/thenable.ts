/**
 * Whether a value is to be awaited. The runtime's steps that run the app's code (a tool's execute, a
 * Standard Schema's validate) take what that code returns at once as it is, and wait only for a
 * thenable: a step whose parts all answer at once makes no promise (with AsyncLocalStorage enabled,
 * as OTel's context manager does, every promise is also a context hook call and garbage;
 * docs/benchmarks.md, round 5, tenth session). Reading `then` is app code too (a getter may throw):
 * a value that throws there is taken for a thenable, so awaiting it rejects with that error, as
 * `await` itself would.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  if (value instanceof Promise) return true;
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return true;
  }
}
